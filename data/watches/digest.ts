import type { TenderFilters } from '../search/tender-index.ts';
import { rankCompanyTenders } from './company.ts';
import { tenderFiltersOf, type BuyerCriteria, type SignalCriteria, type WatchRequest } from './criteria.ts';
import { newForBuyer, newForTender, newSignals, newTenders, tenderItem, type DigestItem, type DigestRelease, type ItemGroup } from './new-items.ts';
import { mailDay, weeklyDue, weeklyStartDay, type Watch, type WatchMail } from './store.ts';

/**
 * What one person's email says: for each watch, what is new since the last email (or since the watch was
 * saved), and, once a week, the week's new tenders for their saved searches (spec, Events 4). Nothing new
 * means no email.
 */

export interface WatchSection {
  watch: Watch;
  heading: string;
  groups: ItemGroup[];
  /** A search link listing every new match, for tender searches whose list was cut short. */
  moreUrl?: string;
}

export interface Digest {
  day: string;
  daily: WatchSection[];
  /** The weekly part, present when it is due and has something new. */
  weekly: WatchSection[];
}

export interface Person {
  mail: WatchMail;
  email: string;
  watches: Watch[];
}

export interface ComposeOptions {
  /** Where people reach the service: "and N more" search links point here. */
  publicUrl: string;
}

const later = (a: string, b: string | null) => (b !== null && Date.parse(b) > Date.parse(a) ? b : a);

/** The email due to one person from this release, or null when one went today already or nothing is new. */
export async function composeDigest(release: DigestRelease, person: Person, options: ComposeOptions): Promise<Digest | null> {
  const day = mailDay(release.now);
  if (person.mail.last_sent_on === day) return null;

  const daily: WatchSection[] = [];
  for (const watch of person.watches) {
    const section = await sectionFor(release, watch, later(watch.new_after, person.mail.daily_through), options);
    if (section.groups.length > 0) daily.push(section);
  }

  const weekly: WatchSection[] = [];
  const weeklyStart = weeklyStartDay(person.watches);
  if (weeklyStart !== null && weeklyDue(person.mail, day, weeklyStart)) {
    for (const watch of person.watches.filter((w) => w.kind === 'search')) {
      const section = await sectionFor(release, watch, later(watch.new_after, person.mail.weekly_through), options);
      if (section.groups.length > 0) weekly.push(section);
    }
  }
  return daily.length === 0 && weekly.length === 0 ? null : { day, daily, weekly };
}

async function sectionFor(release: DigestRelease, watch: Watch, after: string, options: ComposeOptions): Promise<WatchSection> {
  const request = { kind: watch.kind, criteria: watch.criteria } as WatchRequest;
  switch (request.kind) {
    case 'search':
    case 'grants': {
      const filters = tenderFiltersOf(request);
      const { total, hits } = newTenders(release, filters, after);
      const section: WatchSection = {
        watch,
        heading: `${request.kind === 'grants' ? 'Grants search' : 'Search'}: ${describeFilters(request.criteria)}`,
        groups: total === 0 ? [] : [{ label: request.kind === 'grants' ? 'New open grant rounds' : 'New open tenders', total, items: hits.map(tenderItem) }],
      };
      if (total > hits.length) section.moreUrl = searchUrl(options.publicUrl, filters, after);
      return section;
    }
    case 'buyer':
      return { watch, heading: `Buyer: ${await buyerName(release, request.criteria)}`, groups: await newForBuyer(release, request.criteria, after) };
    case 'signals':
      return { watch, heading: `Signals: ${describeFilters(request.criteria)}`, groups: await newSignals(release, request.criteria, after) };
    case 'tender': {
      const { title, groups } = newForTender(release, request.criteria, after);
      return { watch, heading: `Tender: ${title}`, groups };
    }
    case 'company':
      return {
        watch,
        heading: `Company profile: ${'url' in request.criteria ? request.criteria.url : `the ${request.criteria.example} example`}`,
        groups: await rankCompanyTenders(release, watch, after),
      };
  }
}

/** The buyer's name as published (a key is one spelling), or the key when the release no longer holds it. */
async function buyerName(release: DigestRelease, criteria: BuyerCriteria): Promise<string> {
  const [row] = await release.store.all<{ buyer: string }>(
    `SELECT buyer FROM (SELECT buyer FROM awards WHERE buyer_key = $1 UNION ALL SELECT buyer FROM tenders WHERE buyer_key = $1
                        UNION ALL SELECT buyer FROM plans WHERE buyer_key = $1) LIMIT 1`,
    [criteria.buyer_key],
  );
  return row?.buyer ?? criteria.buyer_key;
}

function describeFilters(criteria: Record<string, unknown> | SignalCriteria): string {
  const parts = Object.entries(criteria).map(([name, value]) => (name === 'q' ? `"${String(value)}"` : `${name.replace(/_/g, ' ')} ${String(value)}`));
  return parts.length === 0 ? 'everything new' : parts.join(', ');
}

function searchUrl(publicUrl: string, filters: TenderFilters, after: string): string {
  const query = new URLSearchParams(Object.entries({ ...filters, first_seen_after: after }).map(([name, value]) => [name, String(value)]));
  return `${publicUrl}/v1/tenders?${query.toString()}`;
}

export interface DigestEmail {
  subject: string;
  text: string;
}

/** The email text of a digest; `stopUrl` is the one-click stop link, which needs no sign-in. */
export function renderDigest(digest: Digest, publicUrl: string, stopUrl: string): DigestEmail {
  const count = (sections: WatchSection[]) => sections.reduce((sum, s) => sum + s.groups.reduce((n, g) => n + g.total, 0), 0);
  const dailyCount = count(digest.daily);
  const lines: string[] = [];
  if (digest.daily.length > 0) {
    lines.push(`New since your last email, for your tender watches (${digest.day}):`, '');
    for (const section of digest.daily) lines.push(...renderSection(section));
  }
  if (digest.weekly.length > 0) {
    lines.push('This week\'s new tenders for your saved searches:', '');
    for (const section of digest.weekly) lines.push(...renderSection(section));
  }
  lines.push(
    '--',
    `You get this email because you saved watches at ${publicUrl}. It comes at most once a day, only when something is new;`,
    'saved searches also get a weekly round-up. Manage watches with GET /v1/tenders/watch.',
    `Stop these emails (no sign-in needed): ${stopUrl}`,
    '',
  );
  const subject = dailyCount > 0
    ? `${dailyCount} new for your tender watches (${digest.day})`
    : `This week's new tenders for your saved searches (${digest.day})`;
  return { subject, text: lines.join('\n') };
}

function renderSection(section: WatchSection): string[] {
  const lines = [section.heading, '='.repeat(Math.min(section.heading.length, 72))];
  for (const group of section.groups) {
    lines.push(`${group.label} (${group.total})`);
    for (const item of group.items) lines.push(...renderItem(item));
    if (group.total > group.items.length) lines.push(`  …and ${group.total - group.items.length} more${section.moreUrl ? `: ${section.moreUrl}` : ''}`);
    lines.push('');
  }
  return lines;
}

function renderItem(item: DigestItem): string[] {
  return [`- ${item.title}`, ...(item.facts.length ? [`  ${item.facts.join(' · ')}`] : []), ...(item.url ? [`  ${item.url}`] : [])];
}

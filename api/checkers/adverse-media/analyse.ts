import type { ProviderFailureReason } from '../../providers/http.ts';
import type { Services } from '../../providers/index.ts';
import type { NewsArticleRef } from '../../providers/news.ts';
import { screenName, type SanctionsBlock, type SanctionsIndex } from '../screening/sanctions.ts';
import { summariseMedia, type MediaSummary, type NewsArticle } from './media.ts';
import type { AdverseMediaResult } from './result.ts';
import type { Subject } from './subject.ts';

/**
 * The judging step of adverse-media screening (DESIGN §10): the subject against the release's sanctions
 * lists (api/checkers/screening) and against news (the news client, then each article's page where it can
 * be read). Outside calls go only through `services`; no clock is read. A source that does not answer is
 * said in `limitations` and makes the flag `incomplete`, never a finding.
 */

/** The release's sanctions index, or why there is none (no release loaded, the table unreadable). */
export type SanctionsLookup = { ok: true; index: SanctionsIndex } | { ok: false; detail: string };

/** Article pages read for their text, the first ones the news index ranks; the rest are judged on their titles. */
export const MAX_PAGES_READ = 10;

export interface Screening {
  result: AdverseMediaResult;
  /** Whether any source answered: a reply from no source at all does not use the caller's unit. */
  counts: boolean;
}

export async function screenSubject(subject: Subject, services: Services, sanctions: SanctionsLookup, progress: (stage: string) => void = () => {}): Promise<Screening> {
  progress('screening sanctions lists');
  const screened = sanctions.ok ? screenName(sanctions.index, { name: subject.name, aliases: subject.aliases, ...(subject.dob ? { dob: subject.dob } : {}), ...(subject.country ? { country: subject.country } : {}) }) : null;
  const sanctionsBlock: SanctionsBlock = screened ?? { candidates: [], strong_matches: 0, possible_matches: 0, common_name_ambiguity: false };

  progress('searching news');
  const found = await services.news.search({ names: [subject.name, ...subject.aliases] });
  let media: MediaSummary | null = null;
  let pagesRead = 0;
  let pagesTried = 0;
  if (found.ok) {
    progress('reading articles');
    const articles = await withPageText(found.value, services);
    pagesTried = Math.min(found.value.length, MAX_PAGES_READ);
    pagesRead = articles.filter((article) => article.text !== null).length;
    media = summariseMedia(subject, articles);
  }

  const sanctionsListsAnswered = sanctions.ok && sanctions.index.lists.length > 0;
  const result: AdverseMediaResult = {
    subject: { name: subject.name, source: subject.source, country: subject.country },
    sanctions: sanctionsBlock,
    adverse_media: {
      matched_hits: media?.matched_hits ?? 0,
      possible_hits: media?.possible_hits ?? 0,
      excluded_same_name: media?.excluded_same_name ?? 0,
      categories: media?.categories ?? {},
      hits: media?.hits ?? [],
      excluded: media?.excluded ?? [],
    },
    risk_flag: riskFlag(sanctionsBlock, media, sanctionsListsAnswered && media !== null),
    headline: headline(subject.name, sanctionsBlock, media),
    limitations: limitations({
      sanctions,
      newsProvider: services.news.provider,
      news: found.ok ? { ok: true, articles: found.value.length, pagesRead, pagesTried } : { ok: false, reason: found.reason, detail: found.detail },
      media,
    }),
  };
  return { result, counts: sanctionsListsAnswered || media !== null };
}

/** The news articles, each with its page's text when the page could be read (robots.txt and the SSRF guard apply). */
async function withPageText(refs: NewsArticleRef[], services: Services): Promise<NewsArticle[]> {
  return Promise.all(
    refs.map(async (ref, index): Promise<NewsArticle> => {
      const article: NewsArticle = { url: ref.url, title: ref.title, domain: ref.domain, seen: ref.seen, text: null };
      if (index >= MAX_PAGES_READ) return article;
      const page = await services.pages.read(ref.url);
      const readable = page.ok && page.value.status >= 200 && page.value.status < 300 && page.value.text !== null && page.value.text.trim() !== '';
      return readable ? { ...article, text: page.value.text } : article;
    }),
  );
}

function riskFlag(sanctions: SanctionsBlock, media: MediaSummary | null, everySourceAnswered: boolean): AdverseMediaResult['risk_flag'] {
  const highMedia = media?.hits.some((hit) => hit.match === 'name_and_details' && hit.severity === 'high') ?? false;
  if (sanctions.strong_matches > 0 || highMedia) return 'high';
  if (sanctions.possible_matches > 0 || (media?.hits.length ?? 0) > 0) return 'review';
  return everySourceAnswered ? 'none_found' : 'incomplete';
}

function headline(name: string, sanctions: SanctionsBlock, media: MediaSummary | null): string {
  const parts: string[] = [];
  if (sanctions.strong_matches > 0) parts.push(count(sanctions.strong_matches, 'strong sanctions match', 'strong sanctions matches'));
  if (sanctions.possible_matches > 0) parts.push(count(sanctions.possible_matches, 'possible sanctions match (name only or partly corroborated)', 'possible sanctions matches (name only or partly corroborated)'));
  if (media !== null && media.hits.length > 0) {
    parts.push(`${count(media.hits.length, 'adverse news article', 'adverse news articles')} (${media.matched_hits} matched on details, ${media.possible_hits} possible)`);
  }
  const excluded = media !== null && media.excluded_same_name > 0 ? ` ${count(media.excluded_same_name, 'article about another person of the same name was', 'articles about other people of the same name were')} set aside.` : '';
  if (parts.length === 0) return `No sanctions listing and no adverse news found for ${name} in the sources that answered.${excluded}`;
  return `${name}: ${parts.join('; ')}.${excluded}`;
}

interface LimitationFacts {
  sanctions: SanctionsLookup;
  newsProvider: string;
  news: { ok: true; articles: number; pagesRead: number; pagesTried: number } | { ok: false; reason: ProviderFailureReason; detail: string };
  media: MediaSummary | null;
}

function limitations(facts: LimitationFacts): string {
  const sentences = ['Lists of politically exposed persons (PEPs) are not screened.'];
  if (!facts.sanctions.ok) sentences.push(`Sanctions lists were not screened: ${facts.sanctions.detail}`);
  else if (facts.sanctions.index.lists.length === 0) sentences.push('Sanctions lists were not screened: the loaded release holds none.');
  else {
    const lists = facts.sanctions.index.lists.map((list) => `${list.list_name}${list.as_of ? ` (as of ${list.as_of.slice(0, 10)})` : ''}`);
    sentences.push(`Sanctions screened against ${lists.join(', ')}, by name with date of birth and country as qualifiers; a name-only hit is possible, never confirmed.`);
  }
  if (!facts.news.ok) sentences.push(`News was not searched (${FAILURE_WORDS[facts.news.reason]}): ${facts.news.detail}`);
  else {
    sentences.push(
      `News: ${facts.newsProvider} answered with ${count(facts.news.articles, 'article', 'articles')} (English-language coverage of about the last three months); ` +
        `${facts.news.pagesRead} of the first ${facts.news.pagesTried} article pages could be read; the others (unreachable now, closed to robots, or not text) were judged on their titles.`,
    );
  }
  if (facts.media !== null && facts.media.not_adverse + facts.media.subject_not_seen > 0) {
    sentences.push(`Not listed: ${facts.media.not_adverse} of the articles found named the subject with nothing adverse beside the name, and ${facts.media.subject_not_seen} named neither the subject nor anything adverse in what could be read.`);
  }
  sentences.push(
    'Categories and severities are read from the words beside the name; an article is set aside as about someone else only when it states an age, place, occupation or employer that differs from the details given, so give dob, country, employer and role for fewer possible hits. This is screening for a person to review, not a finding about the subject.',
  );
  return sentences.join(' ');
}

/** How a provider's failure reads in the limitations. */
const FAILURE_WORDS: Readonly<Record<ProviderFailureReason, string>> = { not_configured: 'not configured', unreachable: 'unreachable now', refused: 'refused' };

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

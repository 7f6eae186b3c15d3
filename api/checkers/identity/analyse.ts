import { z } from 'zod';
import type { Analysis } from '../types.ts';
import { documentTypeLabel, documentTypeNames, documentTypePhrase, type DocumentType, type Shown, type ZoneSummary } from '../document-types.ts';
import { classifyFirstPages, type ClassifiedDocument } from '../first-page.ts';
import type { IdentityResult } from './result.ts';
import rulesFile from './rules.json' with { type: 'json' };

type SchemeId = 'afp_100_point' | 'austrac_safe_harbour';

const documentRule = z.strictObject({
  category: z.string(),
  repeat: z.enum(['once', 'per_organisation']),
  expired_grace_days: z.number().int().positive().optional(),
  max_age_months: z.number().int().positive().optional(),
  needs_photo: z.boolean().optional(),
  needs_pension: z.boolean().optional(),
});
const fact = z.strictObject({ fact: z.string(), status: z.enum(['confirmed', 'unconfirmed']), where: z.string() });
const documentRules = z.partialRecord(z.enum(documentTypeNames as [DocumentType, ...DocumentType[]]), documentRule);

const pointsScheme = z.strictObject({
  name: z.string(),
  rule: z.literal('points_accumulation'),
  source: z.string(),
  target: z.number().int().positive(),
  min_primaries: z.number().int().nonnegative(),
  set_must_show: z.array(z.enum(['N', 'P', 'A', 'S'])),
  categories: z.record(z.string(), z.strictObject({ label: z.string(), points: z.array(z.number().int().nonnegative()).min(1) })),
  documents: documentRules,
  facts: z.array(fact),
});
const pathScheme = z.strictObject({
  name: z.string(),
  rule: z.literal('category_path'),
  source: z.string(),
  paths: z.array(z.strictObject({ id: z.string(), label: z.string(), needs: z.record(z.string(), z.number().int().positive()) })).min(1),
  categories: z.record(z.string(), z.strictObject({ label: z.string() })),
  documents: documentRules,
  facts: z.array(fact),
});

/** The rules file, checked when the module loads so a bad edit fails every test at once rather than one request later. */
export const identityRules = z
  .strictObject({ afp_100_point: pointsScheme, austrac_safe_harbour: pathScheme })
  .superRefine((rules, issues) => {
    for (const [id, scheme] of Object.entries(rules)) {
      for (const [type, rule] of Object.entries(scheme.documents)) {
        if (!(rule.category in scheme.categories)) issues.addIssue({ code: 'custom', message: `${id}: ${type} names an unknown category ${rule.category}` });
      }
    }
  })
  .parse(rulesFile);

type PointsScheme = z.infer<typeof pointsScheme>;
type PathScheme = z.infer<typeof pathScheme>;
type DocumentRule = z.infer<typeof documentRule>;

export type { ClassifiedDocument };

const LIMITATIONS =
  'A coverage signal, not identity verification. Each document\'s type is read from the text of its first page (OCR for pictures) and, where page 1 shows one, from the document code of its ICAO machine-readable zone, whose check digits are verified as read (a failure is reported, never repaired into a pass); no document is authenticated, ' +
  'none is checked with its issuer or the Document Verification Service (DVS), names and dates of birth are not compared across documents, and no photo is matched to a person. ' +
  'A photo is reported for a picture upload of a photo-bearing document type, or for a PDF page holding a large image; faces are not detected. ' +
  'Expiry and issue dates count only where they could be read. The rules and which of their facts are not yet confirmed against the official text are in the rules file.';

export const analyseIdentity: Analysis<{ scheme: SchemeId }, IdentityResult> = async (documents, options, context) =>
  judgeIdentity(options.scheme, await classifyFirstPages(documents, context), context.now);

/** The scheme's judgement over already-classified documents: pure, so the rules are tested without reading files. */
export function judgeIdentity(schemeId: SchemeId, documents: ClassifiedDocument[], now: string): IdentityResult {
  return schemeId === 'austrac_safe_harbour' ? judgePaths(identityRules.austrac_safe_harbour, documents, now) : judgePoints(identityRules.afp_100_point, documents, now);
}

interface Verdict {
  filename: string | null;
  classified_type: string;
  shows: Shown[];
  points: number;
  counts: boolean;
  note: string;
  category: string | null;
  zone: ZoneSummary | null;
}

function judgePoints(scheme: PointsScheme, documents: ClassifiedDocument[], now: string): IdentityResult {
  const verdicts = eligibleDocuments(scheme.documents, documents, now, 'AFP');
  // Categories score in the checklist's order (primary, secondary, other) so "first secondary" means the first that counts.
  const counted = new Map<string, number>();
  for (const category of Object.keys(scheme.categories)) {
    for (const verdict of verdicts) {
      if (!verdict.counts || verdict.category !== category) continue;
      const scale = scheme.categories[category]!;
      const nth = counted.get(category) ?? 0;
      verdict.points = scale.points[Math.min(nth, scale.points.length - 1)]!;
      verdict.note = `${scale.label}${scale.points.length > 1 ? (nth === 0 ? ' (first)' : ' (further)') : ''}: ${verdict.points} points${verdict.note ? `; ${verdict.note}` : ''}`;
      counted.set(category, nth + 1);
    }
  }
  const points = verdicts.reduce((sum, verdict) => sum + verdict.points, 0);
  const primaries = counted.get('primary') ?? 0;
  const shownBySet = new Set(verdicts.filter((verdict) => verdict.counts).flatMap((verdict) => verdict.shows));
  const unshown = scheme.set_must_show.filter((letter) => !shownBySet.has(letter));
  const gaps: string[] = [];
  if (points < scheme.target) gaps.push(`${points} of ${scheme.target} points`);
  if (primaries < scheme.min_primaries) gaps.push(`no primary document (at least ${scheme.min_primaries} needed)`);
  if (unshown.length > 0) gaps.push(`no counted document shows ${unshown.map(letterName).join(' or ')}`);
  const established = gaps.length === 0;
  return {
    scheme: { id: 'afp_100_point', name: scheme.name, source: scheme.source },
    established,
    rule: 'points_accumulation',
    points,
    target: scheme.target,
    primaries,
    satisfied_path: null,
    reason: established ? `${points} points from ${verdicts.filter((verdict) => verdict.counts).length} documents, including ${primaries} primary, and the set shows ${scheme.set_must_show.map(letterName).join(', ')}.` : `Not established: ${gaps.join('; ')}.`,
    documents: verdicts.map(publicVerdict),
    limitations: LIMITATIONS,
  };
}

function judgePaths(scheme: PathScheme, documents: ClassifiedDocument[], now: string): IdentityResult {
  const verdicts = eligibleDocuments(scheme.documents, documents, now, 'AUSTRAC');
  for (const verdict of verdicts) {
    if (verdict.counts && verdict.category) verdict.note = `${scheme.categories[verdict.category]!.label}${verdict.note ? `; ${verdict.note}` : ''}`;
  }
  const have = new Map<string, Verdict[]>();
  for (const verdict of verdicts) if (verdict.counts && verdict.category) have.set(verdict.category, [...(have.get(verdict.category) ?? []), verdict]);
  const satisfied = scheme.paths.find((path) => Object.entries(path.needs).every(([category, count]) => (have.get(category)?.length ?? 0) >= count));
  const primaries = [...have.entries()].filter(([category]) => category.startsWith('primary')).reduce((sum, [, list]) => sum + list.length, 0);
  const held = Object.keys(scheme.categories)
    .map((category) => `${have.get(category)?.length ?? 0} ${scheme.categories[category]!.label}`)
    .join(', ');
  return {
    scheme: { id: 'austrac_safe_harbour', name: scheme.name, source: scheme.source },
    established: satisfied !== undefined,
    rule: 'category_path',
    points: null,
    target: null,
    primaries,
    satisfied_path: satisfied?.id ?? null,
    reason: satisfied
      ? `Satisfied by ${satisfied.label}: ${Object.keys(satisfied.needs)
          .map((category) => have.get(category)![0]!.filename ?? documentTypeLabelOf(have.get(category)![0]!.classified_type))
          .join(' and ')}.`
      : `Not established: the safe harbour needs ${scheme.paths.map((path) => path.label).join(', or ')}; counted ${held}.`,
    documents: verdicts.map(publicVerdict),
    limitations: LIMITATIONS,
  };
}

/** Whether each document may count under the scheme's list at all (type, photo, pension, expiry, age, repeats). */
function eligibleDocuments(rules: Partial<Record<DocumentType, DocumentRule>>, documents: ClassifiedDocument[], now: string, listName: string): Verdict[] {
  const issuerDigestsCounted = new Map<DocumentType, (string | null)[]>();
  return documents.map((document): Verdict => {
    const { classification } = document;
    const base = { filename: document.filename, classified_type: classification.type, shows: classification.shows, points: 0, zone: classification.zone };
    const refuse = (note: string): Verdict => ({ ...base, counts: false, note, category: null });
    if (document.unreadable) return refuse(`could not be read: ${document.unreadable}`);
    if (classification.type === 'unrecognised') return refuse('not recognised as a document type this checker knows from its first page');
    const type = classification.type;
    const rule = rules[type];
    if (!rule) return refuse(`${documentTypePhrase(type)} is not on the ${listName} list`);
    if (rule.needs_pension && !classification.pensionCard) return refuse('only a Centrelink pension card counts here, and this card does not name a pension');
    if (rule.needs_photo && !classification.shows.includes('P')) return refuse('this document type counts only with its photograph, and no photograph was found on page 1');
    const expiry = expiryProblem(classification.expires, rule.expired_grace_days ?? 0, now);
    if (expiry) return refuse(expiry);
    // A document that counts only while recent counts only when its date could be read: an unread date is not a recent one.
    if (rule.max_age_months && classification.issued === null) {
      return refuse(`its issue date could not be read from page 1, and ${documentTypePhrase(type).replace(/^an? /, 'this ')} counts only when issued within ${rule.max_age_months} months`);
    }
    if (rule.max_age_months && classification.issued && monthsBetween(classification.issued, now) > rule.max_age_months) {
      return refuse(`issued ${classification.issued}, more than ${rule.max_age_months} months before the check`);
    }
    const earlier = issuerDigestsCounted.get(type) ?? [];
    if (earlier.length > 0) {
      const differentOrganisation = rule.repeat === 'per_organisation' && classification.issuerDigest !== null && earlier.every((digest) => digest !== null && digest !== classification.issuerDigest);
      if (!differentOrganisation) {
        return refuse(
          rule.repeat === 'per_organisation'
            ? `another ${documentTypePhrase(type).replace(/^an? /, '')} counts only from a different organisation, and its issuer matches (or could not be told apart from) one already counted`
            : `${documentTypePhrase(type)} counts once; an earlier one already counted`,
        );
      }
    }
    issuerDigestsCounted.set(type, [...earlier, classification.issuerDigest]);
    const notes: string[] = [];
    if (classification.expires === null && rule.expired_grace_days === undefined && hasExpiry(type)) notes.push('expiry date not readable');
    if (classification.expires !== null && rule.expired_grace_days && classification.expires < now.slice(0, 10)) notes.push(`expired ${classification.expires}, within the ${rule.expired_grace_days / 365} years allowed`);
    return { ...base, counts: true, note: notes.join('; '), category: rule.category };
  });
}

function expiryProblem(expires: string | null, graceDays: number, now: string): string | null {
  if (expires === null) return null;
  const today = now.slice(0, 10);
  if (expires >= today) return null;
  const lapsedDays = (Date.parse(today) - Date.parse(expires)) / 86_400_000;
  if (lapsedDays <= graceDays) return null;
  return graceDays > 0 ? `expired ${expires}, more than ${graceDays / 365} years before the check` : `expired ${expires}`;
}

/** Types that print an expiry date, so a missing one is worth saying. */
function hasExpiry(type: DocumentType): boolean {
  return ['foreign_passport', 'national_id_card', 'drivers_licence', 'proof_of_age_card', 'medicare_card', 'bank_card', 'centrelink_card', 'student_id_card', 'immicard', 'working_with_children_card'].includes(type);
}

function monthsBetween(earlierIso: string, now: string): number {
  const [year, month, day] = earlierIso.split('-').map(Number) as [number, number, number];
  const [nowYear, nowMonth, nowDay] = now.slice(0, 10).split('-').map(Number) as [number, number, number];
  return (nowYear - year) * 12 + (nowMonth - month) + (nowDay - day) / 31;
}

function letterName(letter: Shown): string {
  return { N: 'a name', P: 'a photo', A: 'an address', S: 'a signature' }[letter];
}

function documentTypeLabelOf(type: string): string {
  return type === 'unrecognised' ? 'an unrecognised document' : documentTypeLabel(type as DocumentType);
}

function publicVerdict(verdict: Verdict): IdentityResult['documents'][number] {
  const note = [verdict.note || 'counts', zoneNote(verdict.zone)].filter((part) => part !== '').join('; ');
  return { filename: verdict.filename, classified_type: verdict.classified_type, shows: verdict.shows, points: verdict.points, counts: verdict.counts, note, mrz: verdict.zone };
}

/** What the machine-readable zone says, for the note: a failing check digit is a signal to inspect the document. */
function zoneNote(zone: ZoneSummary | null): string {
  if (zone === null) return '';
  const layout = zone.format.replace(/^MRV/, 'MRV-');
  const failing = zone.checks.filter((check) => !check.valid).map((check) => check.name.replace('_', ' '));
  const repaired = zone.corrections.length === 0 ? '' : ` (${zone.corrections.length} character${zone.corrections.length === 1 ? '' : 's'} taken differently from the first reading; see mrz.corrections)`;
  const differing = (Object.entries(zone.printed_agrees) as [string, boolean | null][]).filter(([, agrees]) => agrees === false).map(([field]) => field.replace(/_/g, ' '));
  const printed = differing.length === 0 ? '' : `; the printed ${differing.join(', ')} differ${differing.length === 1 ? 's' : ''} from the zone's`;
  if (failing.length === 0) return `machine-readable zone (${layout}) read: every check digit verifies${repaired}${printed}`;
  return `machine-readable zone (${layout}) read, but the check digit${failing.length === 1 ? '' : 's'} of the ${failing.join(', ')} do${failing.length === 1 ? 'es' : ''} not verify: the zone was misread or the document altered, so inspect it${repaired}${printed}`;
}

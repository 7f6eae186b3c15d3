// A checker's reply as a person reads it: a headline, the key facts, each signal or finding with its
// evidence, the links to keep (permalink, reports) and the limitations. The reply shapes are the API's
// (api/checkers/*/result.ts); only the fields shown here are named.
import {
  candidateRuleName, claimVerdictName, inspectionQualityName, leanName, matchStrengthName, mediaCategoryName, mediaMatchName, overlapBandName,
  overlapOutcomeName, referenceStatusName, registerName, registerStatusName, resolutionStatusName, riskBandName, riskFlagName, sentenceCase,
  signalGroupName, signalSeverityName,
} from '../../lib/glossary.ts';
import { plainDates, plural } from './format.ts';

export interface ResultItem {
  title: string;
  /** The evidence and what it means, one sentence or quote a line. */
  lines: string[];
  href?: string;
}

export interface ResultSection {
  title: string;
  items: ResultItem[];
  /** Said when the section has no item (so "no signals" is stated, not left blank). */
  empty: string;
}

export interface ResultView {
  headline: string;
  facts: [label: string, value: string][];
  sections: ResultSection[];
  links: { label: string; href: string }[];
  limitations: string | null;
}

/** A name the API writes in code (a document type, a field): its words, lower case. */
const words = (code: string) => sentenceCase(code).toLowerCase();
const listed = (items: readonly string[]) => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
const percent = (share: number) => `${Math.round(share * 100)}%`;
const present = (lines: (string | null | undefined | false)[]) => lines.filter((line): line is string => typeof line === 'string' && line !== '');

interface Warrant {
  risk_band: string; inspection_quality: string; recommended_action: string; permalink: string; report_pdf: string; limitations: string;
  summary: { headline: string; band_rule: string; pages: number | null; revisions: number | null };
  signals: { group: string; severity: string; title: string; found: string; where: Record<string, string | number> }[];
}

const SEVERITY_RANK: Record<string, number> = { info: 0, low: 1, medium: 2, high: 3 };

/**
 * Why the warrant has its level, in words from its own signals (the reply's band rule names signal codes): the
 * same rule as the engine's, where a structure signal weighs medium at most.
 */
function levelReason(reply: Warrant): string {
  const weight = (signal: Warrant['signals'][number]) => Math.min(SEVERITY_RANK[signal.severity] ?? 0, signal.group === 'structure' ? 2 : 3);
  const titles = (rank: number) => listed([...new Set(reply.signals.filter((signal) => weight(signal) === rank).map((signal) => signal.title.toLowerCase()))]);
  const weighing = (rank: number) => reply.signals.filter((signal) => weight(signal) === rank).length;
  switch (reply.risk_band) {
    case 'error': return 'The file could not be read, so nothing in it could be inspected.';
    case 'high': return `${plural(weighing(3), 'signal')} of high weight: ${titles(3)}.`;
    case 'insufficient': return 'Too little of the file could be read to judge it, and no signal weighs high.';
    case 'medium': return `${plural(weighing(2), 'signal')} of medium weight and none high: ${titles(2)}.`;
    default: return reply.signals.length === 0 ? 'No signal was found.' : 'No signal weighs more than low: they describe how the file was saved.';
  }
}

function warrantView(reply: Warrant): ResultView {
  return {
    headline: reply.summary.headline,
    facts: [
      ['Level of concern', riskBandName(reply.risk_band)],
      ['How much of the file could be read', inspectionQualityName(reply.inspection_quality)],
      ['What to do next', reply.recommended_action],
      ['Why this level', levelReason(reply)],
      ...(reply.summary.revisions === null ? [] : [['Saved revisions', String(reply.summary.revisions)] as [string, string]]),
    ],
    sections: [{
      title: 'Signals',
      empty: 'No signal was found.',
      items: reply.signals.map((signal) => ({
        title: `${signal.title} (${signalSeverityName(signal.severity)} weight, ${signalGroupName(signal.group)})`,
        lines: present([signal.found, Object.keys(signal.where).length > 0 && `Where: ${Object.entries(signal.where).map(([key, value]) => `${words(key)} ${value}`).join(', ')}`]),
      })),
    }],
    links: [
      { label: 'Permalink (JSON)', href: reply.permalink },
      { label: 'Report (Markdown)', href: `${reply.permalink}?format=md` },
      { label: 'Report (PDF)', href: reply.report_pdf },
    ],
    limitations: reply.limitations,
  };
}

interface FactCheck {
  permalink: string; limitations: string; summary: { headline: string };
  references: { as_written: string; status: string; evidence: string[]; url: string | null }[];
  claims: { sentence: string; verdict: string; evidence: string | null; reason: string; source_url: string }[];
  internal_consistency: { statement: string; consistent: boolean; explanation: string }[];
}

function factCheckView(reply: FactCheck): ResultView {
  const sections: ResultSection[] = [
    {
      title: 'References',
      empty: 'No link, DOI or citation was found.',
      items: reply.references.map((reference) => ({ title: `${reference.as_written}: ${referenceStatusName(reference.status)}`, lines: reference.evidence, ...(reference.url ? { href: reference.url } : {}) })),
    },
    {
      title: 'Arithmetic',
      empty: 'No stated total, percentage or span was found to recompute.',
      items: reply.internal_consistency.map((item) => ({ title: `${item.consistent ? 'Consistent' : 'Inconsistent'}: ${item.statement}`, lines: [item.explanation] })),
    },
  ];
  if (reply.claims.length > 0) {
    sections.push({
      title: 'Claims against their sources',
      empty: '',
      items: reply.claims.map((claim) => ({ title: `${claimVerdictName(claim.verdict)}: ${claim.sentence}`, lines: present([claim.evidence && `The source says: “${claim.evidence}”`, claim.reason]), href: claim.source_url })),
    });
  }
  return { headline: reply.summary.headline, facts: [], sections, links: [{ label: 'Permalink', href: reply.permalink }], limitations: reply.limitations };
}

interface AiText { applicable: boolean; probability: number | null; lean: string | null; tells: string[]; reasoning: string; limitations: string; word_count: number }

/** A tell reads "what fired: the evidence and its basis"; the part before the first colon is its title. */
function tellItem(tell: string): ResultItem {
  const colon = tell.indexOf(': ');
  return colon === -1 ? { title: tell, lines: [] } : { title: tell.slice(0, colon), lines: [tell.slice(colon + 2)] };
}

function aiTextView(reply: AiText): ResultView {
  return {
    headline: reply.applicable && reply.lean !== null ? leanName(reply.lean) : 'No estimate: the checker abstained',
    facts: [
      ...(reply.probability === null ? [] : [['Probability it is AI-written', percent(reply.probability)] as [string, string]]),
      ['Words read', plural(reply.word_count, 'word')],
      ['Reasoning', reply.reasoning],
    ],
    sections: [{ title: 'Tells', empty: 'No specific tell fired.', items: reply.tells.map(tellItem) }],
    links: [],
    limitations: reply.limitations,
  };
}

interface Overlap {
  headline: string; outcome: string; overlap_band: string; overlap_ratio: number | null; note: string; limitations: string;
  matches: { source_url: string; matched_quote: string; source_quote: string; tokens_matched: number }[];
  top_sources: { url: string; title: string | null; share: number; matches: number }[];
}

function overlapView(reply: Overlap): ResultView {
  return {
    headline: reply.headline,
    facts: [['Outcome', overlapOutcomeName(reply.outcome)], ['Overlap', `${overlapBandName(reply.overlap_band)}${reply.overlap_ratio === null ? '' : ` (${percent(reply.overlap_ratio)} of the words)`}`], ['Paraphrase', reply.note]],
    sections: [
      { title: 'Sources', empty: 'No page was found holding the document’s text.', items: reply.top_sources.map((source) => ({ title: source.title ?? source.url, lines: [`${percent(source.share)} of the document’s words, in ${plural(source.matches, 'passage')}`], href: source.url })) },
      { title: 'Matching passages', empty: 'No passage matched.', items: reply.matches.map((match) => ({ title: `“${match.matched_quote}”`, lines: [`The page has: “${match.source_quote}”`, plural(match.tokens_matched, 'word')], href: match.source_url })) },
    ],
    links: [],
    limitations: reply.limitations,
  };
}

interface Extraction {
  document_type: string; pages_read: number; page_count: number; limitations: string; not_found: string[];
  fields: Record<string, { value: string | number | boolean | null; confidence: number; page: number }>;
}

function extractionView(reply: Extraction): ResultView {
  const fields = Object.entries(reply.fields);
  return {
    headline: `${plural(fields.length, 'field')} read from a ${words(reply.document_type)}`,
    facts: [['Pages read', `${reply.pages_read} of ${reply.page_count}`], ...(reply.not_found.length > 0 ? [['Not found', reply.not_found.map(words).join(', ')] as [string, string]] : [])],
    sections: [{ title: 'Fields', empty: 'No field was found.', items: fields.map(([name, field]) => ({ title: `${words(name)}: ${field.value === null ? '—' : String(field.value)}`, lines: [`Page ${field.page}, confidence ${percent(field.confidence)}`] })) }],
    links: [],
    limitations: reply.limitations,
  };
}

interface Identity {
  established: boolean; reason: string; points: number | null; target: number | null; limitations: string; scheme: { name: string };
  documents: { filename: string | null; classified_type: string; shows: string[]; points: number; counts: boolean; note: string }[];
}

const SHOWS: Record<string, string> = { N: 'name', P: 'photo', A: 'address', S: 'signature' };

function identityView(reply: Identity): ResultView {
  return {
    headline: reply.reason,
    facts: [['Scheme', reply.scheme.name], ['Identity established', reply.established ? 'yes' : 'no'], ...(reply.points === null ? [] : [['Points', `${reply.points} of ${reply.target}`] as [string, string]])],
    sections: [{
      title: 'Documents',
      empty: 'No document was read.',
      items: reply.documents.map((document) => ({
        title: `${document.filename ?? 'Document'}: ${words(document.classified_type)}`,
        lines: present([document.shows.length > 0 && `Shows ${document.shows.map((letter) => SHOWS[letter] ?? letter).join(', ')}`, `${document.counts ? 'Counts' : 'Does not count'}${document.points ? ` (${plural(document.points, 'point')})` : ''}`, document.note]),
      })),
    }],
    links: [],
    limitations: reply.limitations,
  };
}

interface Pack {
  complete: boolean; limitations: string; scheme: { name: string }; missing: string[];
  slots: { label: string; satisfied: boolean; matched: string | null; optional: boolean }[];
  unmatched_documents: { filename: string | null; classified_type: string; reason: string }[];
  flags: { filename: string | null; message: string; source: string }[];
}

function packView(reply: Pack): ResultView {
  const sections: ResultSection[] = [
    { title: 'Checklist', empty: 'The checklist has no item.', items: reply.slots.map((slot) => ({ title: `${slot.label}: ${slot.satisfied ? 'present' : slot.optional ? 'missing (optional)' : 'missing'}`, lines: present([slot.matched && `Matched by ${slot.matched}`]) })) },
    { title: 'Documents that matched no item', empty: 'Every document matched an item.', items: reply.unmatched_documents.map((document) => ({ title: `${document.filename ?? 'Document'}: ${words(document.classified_type)}`, lines: [document.reason] })) },
  ];
  if (reply.flags.length > 0) sections.push({ title: 'Documents the scheme should not collect', empty: '', items: reply.flags.map((flag) => ({ title: flag.filename ?? 'Document', lines: [flag.message, `Rule: ${flag.source}`] })) });
  return {
    headline: reply.complete ? `${reply.scheme.name}: the pack is complete` : `${reply.scheme.name}: ${plural(reply.missing.length, 'item')} missing`,
    facts: [],
    sections,
    links: [],
    limitations: reply.limitations,
  };
}

interface AdverseMedia {
  headline: string; risk_flag: string; limitations: string; subject: { name: string; source: string; country: string | null };
  sanctions: { candidates: { name: string; strength: string; corroboration: string[]; topics: string[]; datasets: number }[] };
  adverse_media: { hits: { url: string; title: string; source: string; match: string; category: string; severity: string; evidence: string }[]; excluded: { url: string; title: string; reason: string }[] };
}

function adverseMediaView(reply: AdverseMedia): ResultView {
  return {
    headline: reply.headline,
    facts: [['Screened', `${reply.subject.name}${reply.subject.country ? ` (${reply.subject.country})` : ''}`], ['Finding', riskFlagName(reply.risk_flag)]],
    sections: [
      { title: 'Sanctions candidates', empty: 'No sanctions listing matched.', items: reply.sanctions.candidates.map((candidate) => ({ title: `${candidate.name}: ${matchStrengthName(candidate.strength)} match`, lines: present([candidate.corroboration.length > 0 && `Agrees on ${listed(candidate.corroboration.map(words))}`, `Listed in ${plural(candidate.datasets, 'list')}${candidate.topics.length > 0 ? `: ${candidate.topics.join(', ')}` : ''}`]) })) },
      { title: 'News articles', empty: 'No adverse article matched.', items: reply.adverse_media.hits.map((hit) => ({ title: hit.title, lines: [`“${hit.evidence}”`, `${hit.source}; ${mediaCategoryName(hit.category)}, ${hit.severity} severity; matched on ${mediaMatchName(hit.match)}`], href: hit.url })) },
      { title: 'Set aside as someone else', empty: 'No same-name article was set aside.', items: reply.adverse_media.excluded.map((article) => ({ title: article.title, lines: [article.reason], href: article.url })) },
    ],
    links: [],
    limitations: reply.limitations,
  };
}

interface CompanyResolution {
  status: string; resolved_because: string; limitations: string;
  selected: CompanyEntry | null;
  candidates: (CompanyEntry & { match: { rule: string; matched: string } })[];
  coverage: { source: string; status: string; detail: string }[];
}
interface CompanyEntry {
  identifiers: { abn: string | null; acn: string | null }; names: { legal: string | null }; abn_status: string | null;
  asic: { status_meaning: string; in_good_standing: boolean; caveat: string } | null;
}

function companyLines(entry: CompanyEntry): string[] {
  return present([
    entry.identifiers.abn && `ABN ${entry.identifiers.abn}${entry.abn_status ? ` (${entry.abn_status})` : ''}`,
    entry.identifiers.acn && `ACN ${entry.identifiers.acn}`,
    entry.asic && `ASIC: ${entry.asic.status_meaning}; ${entry.asic.in_good_standing ? 'in good standing' : 'not in good standing'}. ${entry.asic.caveat}`,
  ]);
}

function companyView(reply: CompanyResolution): ResultView {
  const sections: ResultSection[] = [];
  if (reply.selected) sections.push({ title: 'The company', empty: '', items: [{ title: reply.selected.names.legal ?? 'Unnamed entity', lines: companyLines(reply.selected) }] });
  sections.push(
    { title: 'Candidates', empty: 'No register entry matched.', items: reply.candidates.map((candidate) => ({ title: candidate.names.legal ?? candidate.match.matched, lines: [`Matched ${candidate.match.matched} by ${candidateRuleName(candidate.match.rule)}`, ...companyLines(candidate)] })) },
    { title: 'Registers read', empty: '', items: reply.coverage.map((source) => ({ title: `${registerName(source.source)}: ${registerStatusName(source.status)}`, lines: [source.detail] })) },
  );
  return { headline: reply.resolved_because, facts: [['Outcome', resolutionStatusName(reply.status)]], sections, links: [], limitations: reply.limitations };
}

const VIEWS: Record<string, (reply: never) => ResultView> = {
  warrant: warrantView,
  references: factCheckView,
  'ai-text': aiTextView,
  overlap: overlapView,
  extract: extractionView,
  identity: identityView,
  pack: packView,
  'adverse-media': adverseMediaView,
  company: companyView,
};

/** The view of a checker's reply (the checker ids of site/lib/checkers.ts), dates in its words read as people write them. */
export function resultView(checkerId: string, reply: unknown): ResultView {
  const view = VIEWS[checkerId];
  if (!view) throw new Error(`No result view for the checker ${checkerId}.`);
  const shown = view(reply as never);
  return {
    headline: plainDates(shown.headline),
    facts: shown.facts.map(([label, value]) => [label, plainDates(value)]),
    sections: shown.sections.map((section) => ({ ...section, items: section.items.map((item) => ({ ...item, title: plainDates(item.title), lines: item.lines.map(plainDates) })) })),
    links: shown.links,
    limitations: shown.limitations === null ? null : plainDates(shown.limitations),
  };
}

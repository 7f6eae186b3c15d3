import type { PageText } from '../../documents/types.ts';
import { escapeRegExp, foldAccents } from './values.ts';
import vocabulary from './vocabulary.json' with { type: 'json' };

/**
 * The document types extraction knows (one per template), shared by the extract core's template choice
 * and the `classify` option. `unrecognised` when no type's cues are strong enough.
 */
export const extractDocumentTypes = ['payslip', 'tax_invoice', 'bank_statement', 'receipt', 'contract'] as const;

export type ExtractDocumentType = (typeof extractDocumentTypes)[number];

export interface Cue {
  type: ExtractDocumentType;
  /** What was seen, as the pattern's name (e.g. `"tax invoice" title`). */
  cue: string;
  page: number;
  weight: number;
}

export interface Classification {
  document_type: ExtractDocumentType | 'unrecognised';
  confidence: number;
  cues: Cue[];
  scores: Record<ExtractDocumentType, number>;
}

interface CueRule {
  type: ExtractDocumentType;
  cue: string;
  pattern: RegExp;
  weight: number;
  /** The words a document of this type is titled with. */
  title?: true;
}

/**
 * Words and labels that the ATO (tax invoice), Fair Work (payslip) and common practice (statements,
 * receipts, contracts) put on each kind of document (checkers-research §5.3–5.5). A title counts most.
 */
const rules: CueRule[] = [
  // "…on receipt of a correctly rendered tax invoice" in a contract's or a tender's sentence is no title.
  { type: 'tax_invoice', cue: '"tax invoice" title', pattern: /(?<!\b(?:a|an|the)\s(?:[a-z]+\s){0,2})\btax\s+invoice\b/i, weight: 5, title: true },
  { type: 'tax_invoice', cue: 'invoice number', pattern: /\binvoice\s*(?:no\.?|number|#)/i, weight: 2 },
  { type: 'tax_invoice', cue: 'due date', pattern: /\b(?:due\s+date|payment\s+terms|amount\s+due)\b/i, weight: 1.5 },
  { type: 'tax_invoice', cue: 'bill to', pattern: /\b(?:bill\s+to|invoice\s+to|customer\s+abn)\b/i, weight: 1.5 },
  { type: 'tax_invoice', cue: 'subtotal and GST', pattern: /\bsub\s*-?total\b/i, weight: 1 },
  { type: 'payslip', cue: '"payslip" title', pattern: /\bpay\s*(?:slip|advice)\b/i, weight: 5, title: true },
  { type: 'payslip', cue: 'gross and net pay', pattern: /\b(?:gross|net)\s+pay\b/i, weight: 2 },
  { type: 'payslip', cue: 'pay period', pattern: /\bpay\s+(?:period|date)\b/i, weight: 2 },
  { type: 'payslip', cue: 'superannuation', pattern: /\bsuper(?:annuation)?\s+(?:guarantee|fund|contribution)/i, weight: 1.5 },
  { type: 'payslip', cue: 'PAYG withholding', pattern: /\bPAYG\b|\btax\s+withheld\b/i, weight: 1.5 },
  { type: 'payslip', cue: 'year to date', pattern: /\bYTD\b|\byear\s+to\s+date\b/i, weight: 1 },
  { type: 'payslip', cue: 'employee and employer', pattern: /\bemploy(?:ee|er)\b/i, weight: 1 },
  { type: 'bank_statement', cue: '"statement" title', pattern: /\b(?:bank|account)\s+statement\b|\bstatement\s+of\s+account\b/i, weight: 5, title: true },
  { type: 'bank_statement', cue: 'opening and closing balance', pattern: /\b(?:opening|closing)\s+balance\b/i, weight: 2.5 },
  { type: 'bank_statement', cue: 'statement period', pattern: /\bstatement\s+(?:period|date|from)\b/i, weight: 2 },
  { type: 'bank_statement', cue: 'BSB', pattern: /\bBSB\b/, weight: 1.5 },
  { type: 'bank_statement', cue: 'debit and credit columns', pattern: /\bdebits?\b[^\n]*\bcredits?\b/i, weight: 1.5 },
  { type: 'receipt', cue: '"receipt" title', pattern: /\breceipt\b/i, weight: 4, title: true },
  { type: 'receipt', cue: 'payment method', pattern: /\b(?:EFTPOS|cash\s+tendered|change\s+given|card\s+payment|paid\s+by)\b/i, weight: 2 },
  { type: 'receipt', cue: 'total includes GST', pattern: /\b(?:total\s+)?includes\s+GST\b/i, weight: 1 },
  { type: 'receipt', cue: 'thank you', pattern: /\bthank\s+you\b/i, weight: 1 },
  { type: 'contract', cue: '"agreement" title', pattern: /\b(?:agreement|contract|deed)\b/i, weight: 3, title: true },
  { type: 'contract', cue: 'parties', pattern: /\b(?:between|the\s+parties|party)\b/i, weight: 1.5 },
  { type: 'contract', cue: 'governing law', pattern: /\bgoverning\s+law\b|\bjurisdiction\b/i, weight: 2 },
  { type: 'contract', cue: 'term and termination', pattern: /\bterminat(?:e|ion)\b|\bcommencement\s+date\b/i, weight: 1.5 },
  { type: 'contract', cue: 'execution block', pattern: /\b(?:executed|signed)\s+(?:as\s+an?\s+agreement|by|for\s+and\s+on\s+behalf)\b|\bwitness\b/i, weight: 2 },
];

/** Title weight per type when the title opens a line (a document names itself at the head of a line). */
const titleWeight: Record<ExtractDocumentType, number> = { tax_invoice: 4, receipt: 4, bank_statement: 4, payslip: 5, contract: 3 };


/**
 * The titles and cues of every language in vocabulary.json, matched on the folded text (lowercase, no
 * accents). An English word an English rule above already knows is not counted twice.
 */
const vocabularyRules: CueRule[] = extractDocumentTypes.flatMap((type) => {
  const known = (word: string) => rules.some((rule) => rule.type === type && rule.pattern.test(word));
  const titles = Object.entries(vocabulary.document_titles[type]).flatMap(([language, words]) =>
    words
      .filter((word) => language !== 'en' || !known(word))
      // Spaces after the line start or tab, but no newline or tab: with them in the class, every line start or tab
      // of a page of blank lines scanned to its end again (5,000 blank lines took 20 s); ^ and \t already match at
      // each of them, so what matches is unchanged.
      .map((word): CueRule => ({ type, cue: `"${word}" title`, pattern: new RegExp(`(?:^|\\t)(?:[^\\S\\n\\t]|[\\-–*#|])*${escapeRegExp(foldAccents(word))}(?![\\p{L}])`, 'mu'), weight: titleWeight[type], title: true })),
  );
  const cues = Object.entries(vocabulary.cues[type]).flatMap(([language, entries]) =>
    (entries as [string, number][])
      .filter(([word]) => language !== 'en' || !known(word))
      .map(([word, weight]): CueRule => ({ type, cue: word, pattern: new RegExp(`(?<![\\p{L}])${escapeRegExp(foldAccents(word))}(?![\\p{L}])`, 'u'), weight })),
  );
  return [...titles, ...cues];
});

/**
 * A contract numbers its clauses and heads them with what they settle ("12. Termination", "§ 5 Kündigung", "Article 3 -
 * Durée"): two different such headings opening numbered lines (vocabulary.json `clause_headings`) are a cue, where a
 * letter, a notice or an invoice that mentions termination or liability in a sentence is not.
 */
const clauseHeadingWords = Object.entries(vocabulary.clause_headings)
  .filter(([language]) => language !== 'about')
  .flatMap(([, words]) => words as string[])
  .map(foldAccents)
  .sort((a, b) => b.length - a.length);
const clauseHeading = new RegExp(
  // Spaces within the line only ([^\S\n]), so a page of blank lines is not scanned again from every line start.
  `^(?:[^\\S\\n]|[*#|])*(?:(?:clause|clausula|article|articulo|articolo|artikel|art\\.|section|§)[^\\S\\n]*)?(?:\\d{1,3}(?:\\.\\d{1,3})*|[ivx]{1,5})[.):\\-–]?[^\\S\\n]+(${clauseHeadingWords.map(escapeRegExp).join('|')})(?![\\p{L}])`,
  'gmu',
);
const clauseHeadingsCue = { cue: 'numbered clauses headed like a contract\'s (definitions, term, termination, liability …)', weight: 2.5 };

/** The first page on which two different contract clause headings have opened numbered lines, or null. */
function numberedClausesPage(folded: readonly { page: number; text: string }[]): number | null {
  const seen = new Set<string>();
  for (const page of folded) {
    for (const match of page.text.matchAll(clauseHeading)) {
      seen.add(match[1]!);
      if (seen.size >= 2) return page.page;
    }
  }
  return null;
}

/**
 * What a request for tenders, quotes, proposals or information says (solicitation wording of AusTender, the UK's
 * and the US FAR's documents): such a document asks for an offer, a form or a contract; it is none of them, so it
 * is `unrecognised` rather than the contract or the form it contains, when its own wording outweighs theirs.
 */
const solicitationCues: { pattern: RegExp; weight: number }[] = [
  { pattern: /\b(?:request\s+for\s+(?:tenders?|quot(?:e|ation)s?|proposals?|information|expressions?\s+of\s+interest)|invitation\s+to\s+(?:tender|quote|bid)|sources\s+sought|solicitation)\b/i, weight: 4 },
  { pattern: /\b(?:RFQ|RFP|RFT|RFI|EOI|ITT)\b/, weight: 2 },
  { pattern: /\b(?:offerors?|tenderers?|respondents?|proposers?|bidders?)\b/i, weight: 2 },
  { pattern: /\b(?:evaluation\s+criteria|statement\s+of\s+(?:work|objectives|requirements)|closing\s+(?:date|time))\b/i, weight: 1.5 },
];

/** How strongly the pages read as a solicitation (a request for tenders, quotes or proposals), page 1 counting most. */
export function solicitationScore(pages: readonly PageText[]): number {
  return solicitationCues.reduce((sum, { pattern, weight }) => {
    const page = pages.find((candidate) => pattern.test(candidate.text));
    return page ? sum + (page.page === 1 ? weight : weight / 2) : sum;
  }, 0);
}

/** Below this summed weight the type is `unrecognised`: one weak label alone is not a document type. */
const minimumScore = 3.5;

/** An embedded e-invoice (Factur-X, ZUGFeRD, XRechnung, UBL) is an invoice by construction. */
const einvoiceWeight = 6;

/**
 * The document's type from the cues its pages show, with how sure and which cues decided it. Each distinct
 * cue counts once, on the first page it is seen; titles and cues of several languages may add up.
 */
export function classifyDocument(pages: readonly PageText[], embeddedInvoice = false): Classification {
  const cues: Cue[] = [];
  const folded = pages.map((page) => ({ page: page.page, text: foldAccents(page.text) }));
  for (const rule of rules) {
    const page = pages.find((candidate) => rule.pattern.test(candidate.text));
    // A title on page 1 decides more than the same words deep inside a document.
    if (page) cues.push({ type: rule.type, cue: rule.cue, page: page.page, weight: page.page === 1 ? rule.weight : rule.weight / 2 });
  }
  const titled = new Set<ExtractDocumentType>();
  for (const rule of vocabularyRules) {
    const page = folded.find((candidate) => rule.pattern.test(candidate.text));
    if (!page) continue;
    // One title per type: "Rechnung" and "Handelsrechnung" on one page are one title.
    if (rule.title && titled.has(rule.type)) continue;
    if (rule.title) titled.add(rule.type);
    cues.push({ type: rule.type, cue: rule.cue, page: page.page, weight: page.page === 1 ? rule.weight : rule.weight / 2 });
  }
  const clausesPage = numberedClausesPage(folded);
  if (clausesPage !== null) cues.push({ type: 'contract', cue: clauseHeadingsCue.cue, page: clausesPage, weight: clausesPage === 1 ? clauseHeadingsCue.weight : clauseHeadingsCue.weight / 2 });
  if (embeddedInvoice) cues.push({ type: 'tax_invoice', cue: 'embedded e-invoice', page: 1, weight: einvoiceWeight });
  const scores = Object.fromEntries(extractDocumentTypes.map((type) => [type, 0])) as Record<ExtractDocumentType, number>;
  for (const cue of cues) scores[cue.type] += cue.weight;
  const ranked = [...extractDocumentTypes].sort((a, b) => scores[b] - scores[a]);
  const best = ranked[0]!;
  const total = extractDocumentTypes.reduce((sum, type) => sum + scores[type], 0);
  if (scores[best] < minimumScore) return { document_type: 'unrecognised', confidence: round(1 - scores[best] / minimumScore / 2), cues, scores };
  const solicitation = embeddedInvoice ? 0 : solicitationScore(pages);
  if (solicitation >= minimumScore && solicitation >= scores[best]) return { document_type: 'unrecognised', confidence: round(Math.min(1, solicitation / (solicitation + scores[best]))), cues, scores };
  // Share of the evidence, discounted when the evidence itself is thin.
  const confidence = (scores[best] / total) * Math.min(1, scores[best] / (2 * minimumScore));
  return { document_type: best, confidence: round(confidence), cues: cues.filter((cue) => cue.type === best), scores };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The document type a title line names (TAX INVOICE, Payslip, Rechnung, Facture, Services Agreement …), or null. */
export function titleType(line: string): ExtractDocumentType | null {
  const folded = foldAccents(line);
  return rules.find((rule) => rule.title && rule.pattern.test(line))?.type ?? vocabularyRules.find((rule) => rule.title && rule.pattern.test(folded))?.type ?? null;
}

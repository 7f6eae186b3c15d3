import { z } from '@hono/zod-openapi';
import { extractOptionNames, extractOptionSettings, type OptionName } from './options/index.ts';
import classifyMeasured from '../../../measured/extract-option-classify.json' with { type: 'json' };
import groundingMeasured from '../../../measured/extract-option-grounding.json' with { type: 'json' };
import redactMeasured from '../../../measured/extract-option-redact.json' with { type: 'json' };
import splitMeasured from '../../../measured/extract-option-split.json' with { type: 'json' };
import tablesMeasured from '../../../measured/extract-option-tables.json' with { type: 'json' };
import realInvoices from '../../../measured/extract-real-invoices.json' with { type: 'json' };
import realSplit from '../../../measured/extract-split-real.json' with { type: 'json' };
import realPayslips from '../../../measured/extract-real-payslips.json' with { type: 'json' };
import realStatements from '../../../measured/extract-real-statements.json' with { type: 'json' };
import realContracts from '../../../measured/classify-real-contracts.json' with { type: 'json' };

const support = z.enum(['yes', 'partial', 'no']).describe('yes: works as described; partial: works with less (see inputs_note); no: returns nothing for this input');

export const optionCapability = z
  .object({
    option: z.enum(extractOptionNames),
    available: z.boolean().describe('false: a request asking for it is refused with 400'),
    accepts: z.record(z.string(), z.unknown()).describe('JSON Schema of the settings; `true` turns the option on with the defaults'),
    variants: z
      .array(z.object({ setting: z.string(), value: z.string(), available: z.boolean(), reason: z.string().nullable() }))
      .describe('Setting values whose availability differs from the option as a whole'),
    inputs: z.object({ pdf_text_layer: support, scanned_pdf_or_image: support, docx: support }),
    inputs_note: z.string(),
    mechanism: z.string(),
    measured: z.boolean().describe('A test measures it on a labelled set and fails below its floor'),
    measurement: z
      .object({ figure: z.string(), metrics: z.record(z.string(), z.number()), labelled_set: z.string() })
      .nullable()
      .describe('The figure the test last measured, on what'),
    real_documents: z
      .object({ figure: z.string(), metrics: z.record(z.string(), z.number()), labelled_set: z.string() })
      .nullable()
      .describe('The figure measured on real documents (test/extract-real-corpus.test.ts, measured/extract-real-invoices.json), or null where not measured on them'),
  })
  .openapi('ExtractOptionCapability');

const realMeasurement = z.object({ figure: z.string(), metrics: z.record(z.string(), z.number()), labelled_set: z.string(), truth: z.string() });

export const capabilities = z
  .object({
    options: z.array(optionCapability),
    fields: realMeasurement.describe('Template fields (total, date, invoice number, issuer in the right field), classification and confidence calibration measured on real invoices and receipts'),
    payslip_fields: realMeasurement.describe('The payslip template\'s fields in the right field, measured on real payslips (test/extract-real-payslips.test.ts)'),
    statement_fields: realMeasurement.describe('The bank statement template\'s fields in the right field, measured on real bank and card statements (test/extract-real-statements.test.ts)'),
    limitations: z.string(),
  })
  .openapi('ExtractCapabilities');

export type Capabilities = z.infer<typeof capabilities>;
export type OptionCapability = z.infer<typeof optionCapability>;

type Described = Omit<OptionCapability, 'option' | 'accepts' | 'real_documents'>;

/** The figures test/extract-real-corpus.test.ts records on every run (every text-layer file and a fixed sample of scans): the file the README quotes too. */
const real = realInvoices.figures;
const realSet = realInvoices.corpus;
const two = (value: number) => value.toFixed(2);

const realDocuments: Partial<Record<OptionName, OptionCapability['real_documents']>> = {
  tables: { figure: `line tables read whole ${two(real.line_tables)} of ${real.invoices_with_lines} invoices and receipts with lines`, metrics: { line_tables: real.line_tables }, labelled_set: realSet },
  classify: {
    figure: `accuracy ${two(real.classification)} on invoices and receipts, ${two(real.statements_payslips_classification)} on ${real.statements_payslips_classified} statements and payslips, ${two(realContracts.figures.extract_accuracy)} on ${realContracts.figures.documents} contracts and look-alikes (contract recall ${two(realContracts.figures.contract_recall)}, precision ${two(realContracts.figures.contract_precision)})`,
    metrics: {
      accuracy: real.classification,
      statements_payslips: real.statements_payslips_classification,
      contracts_and_look_alikes: realContracts.figures.extract_accuracy,
      contract_recall: realContracts.figures.contract_recall,
      contract_precision: realContracts.figures.contract_precision,
    },
    labelled_set: `${realSet}; ${realContracts.corpus} (test/classify-real-contracts.test.ts)`,
  },
  split: {
    figure: `boundary precision ${two(realSplit.figures.boundary_precision)}, recall ${two(realSplit.figures.boundary_recall)}; exact page range ${two(realSplit.figures.exact_page_ranges)}, range and type ${two(realSplit.figures.type_right)}`,
    metrics: { boundary_precision: realSplit.figures.boundary_precision, boundary_recall: realSplit.figures.boundary_recall, exact_page_ranges: realSplit.figures.exact_page_ranges, type_right: realSplit.figures.type_right },
    labelled_set: `${realSplit.corpus} (test/extract-split-real.test.ts)`,
  },
  redact: { figure: `recall ${two(real.redaction_recall)} over ${real.redaction_identifiers} phones, e-mails, accounts, tax and VAT numbers printed on them`, metrics: { recall: real.redaction_recall }, labelled_set: realSet },
};

/**
 * What each option does, on what, how, and how well as measured. The figures are what the labelled-set
 * tests (tables, redact, classify, split and corpus tests) recorded in measured/extract-option-*.json;
 * each test fails when its measurement differs from the file.
 */
const tablesFigures = tablesMeasured.figures;
const groundingFigures = groundingMeasured.figures;
const classifyFigures = classifyMeasured.figures;
const redactFigures = redactMeasured.figures;
const splitFigures = splitMeasured.figures;
const measuredFigures = {
  tables: { table_precision: tablesFigures.table_precision, table_recall: tablesFigures.table_recall, cell_accuracy: tablesFigures.cell_accuracy },
  redact: { precision: redactFigures.precision, recall: redactFigures.recall },
  classify: { accuracy: classifyFigures.accuracy },
  split: { boundary_precision: splitFigures.boundary_precision, boundary_recall: splitFigures.boundary_recall },
  grounding: { located: groundingFigures.located, text_in_box: groundingFigures.text_in_box },
};

const descriptions: Record<OptionName, Described> = {
  tables: {
    available: true,
    variants: [
      { setting: 'source', value: 'native_pdf', available: true, reason: null },
      { setting: 'source', value: 'vlm', available: false, reason: 'no vision model is configured on this server' },
    ],
    inputs: { pdf_text_layer: 'yes', scanned_pdf_or_image: 'partial', docx: 'no' },
    inputs_note: 'On scans the same column alignment is read from OCR word boxes (not measured); a .docx is read as text without positions, so no tables are found in it. Cells wrapped over several lines are split into rows; a two-column list of labels and values without colons (a contract schedule) reads as a table whose header is its first pair.',
    mechanism: 'Consecutive lines (less than 1.5 line heights apart) whose runs split into cells at gaps wider than 0.8 line heights are grouped; columns are the x-ranges where the cells of the fullest rows overlap, and a cell spanning columns goes to the one it overlaps most; the first row is the header when it reads as one; a table ending a page and one starting the next with the same columns are joined.',
    measured: true,
    measurement: {
      figure: `table precision ${measuredFigures.tables.table_precision.toFixed(2)}, recall ${measuredFigures.tables.table_recall.toFixed(2)}, cells right ${measuredFigures.tables.cell_accuracy.toFixed(2)}`,
      metrics: measuredFigures.tables,
      labelled_set: `${tablesFigures.tables} generated tables (2 to 5 columns, empty cells, right-aligned numbers, half the pages with a run per word) on ${tablesFigures.pages} text-layer pages with key-value blocks and paragraphs between them; also every invoice and statement of the extract core's 64-document corpus read whole (27 of 27, line amounts adding to the subtotal)`,
    },
  },
  grounding: {
    available: true,
    variants: [],
    inputs: { pdf_text_layer: 'yes', scanned_pdf_or_image: 'partial', docx: 'partial' },
    inputs_note: 'On scans and in a .docx the value is located in the text but bbox is null (no text layer geometry); text_layer_match is false on OCR pages. A month-first date (05/03/2026 for 3 May) is not located, as it reads as another day-first date.',
    mechanism: "Each extracted value's printed forms (amounts with and without thousands separators, ISO dates as the page may print them) are searched in the page text, the field's own page first; the run boxes give the box.",
    measured: true,
    measurement: {
      figure: `${measuredFigures.grounding.located.toFixed(2)} of labelled values located, ${measuredFigures.grounding.text_in_box.toFixed(2)} of them with their text inside the box`,
      metrics: measuredFigures.grounding,
      labelled_set: `the extract core's ${groundingFigures.documents} generated documents (five templates, several layouts and date styles), ${groundingFigures.values} labelled values`,
    },
  },
  classify: {
    available: true,
    variants: [],
    inputs: { pdf_text_layer: 'yes', scanned_pdf_or_image: 'yes', docx: 'yes' },
    inputs_note: 'Reads the text of the pages read; OCR errors in titles lower the confidence. The measurement is on text-layer documents; scans are not measured by a test.',
    mechanism: 'Weighted title and label cues per template type (tax invoice, payslip, bank statement, receipt, contract); a cue on page 1 counts double; below a minimum score the type is unrecognised.',
    measured: true,
    measurement: {
      figure: `accuracy ${measuredFigures.classify.accuracy.toFixed(2)}`,
      metrics: measuredFigures.classify,
      labelled_set: `${classifyFigures.documents} generated documents: ten of each type with words borrowed from the other types, and ten letters and minutes`,
    },
  },
  redact: {
    available: true,
    variants: [],
    inputs: { pdf_text_layer: 'yes', scanned_pdf_or_image: 'yes', docx: 'yes' },
    inputs_note: 'Boxes come from the text layer or OCR words; a .docx has spans and masked text but null boxes. On scans one misread digit fails a check digit and the number is not masked; scans are not measured by a test.',
    mechanism: 'Patterns for TFN, ABN and Medicare numbers kept only when their check digit is right; IBANs, cards, Aadhaar, NHS and IRD numbers, US routing numbers, India GSTINs and the VAT numbers of DE, FR, IT, ES, NL, BE, AT and PL told by their published check digits (a failed IBAN, VAT, IRD or routing check is still masked beside its label); BSB and account numbers and dates of birth beside their label, email addresses by form and phones of every country by libphonenumber; overlapping findings keep the longer.',
    measured: true,
    measurement: {
      figure: `precision ${measuredFigures.redact.precision.toFixed(2)}, recall ${measuredFigures.redact.recall.toFixed(2)}`,
      metrics: measuredFigures.redact,
      labelled_set: `${redactFigures.spans} labelled spans of seven kinds in ${redactFigures.documents} generated documents, beside labels and inside sentences, with invoice numbers, wrong check digits, other dates, emergency numbers and amounts as distractors; also 79 of 79 labelled ABNs, BSBs and account numbers in the extract core's 64-document corpus`,
    },
  },
  layout: {
    available: true,
    variants: [],
    inputs: { pdf_text_layer: 'yes', scanned_pdf_or_image: 'partial', docx: 'partial' },
    inputs_note: 'On scans OCR line heights stand in for font sizes; a .docx gives one block per paragraph without boxes or heading levels.',
    mechanism: 'Recursive XY-cut of the page runs (tables kept as one piece) gives reading order with columns read one after another; lines set at least a fifth larger than the body are headings, levelled by size; marker-led lines are lists; close lines are paragraphs.',
    measured: false,
    measurement: null,
  },
  links: {
    available: true,
    variants: [],
    inputs: { pdf_text_layer: 'yes', scanned_pdf_or_image: 'partial', docx: 'partial' },
    inputs_note: 'Only PDFs carry link annotations; elsewhere only URLs and addresses written in the text are found.',
    mechanism: 'PDF link annotations with their target and the text they cover (pdfjs getAnnotations), and URLs and email addresses matched in the text.',
    measured: false,
    measurement: null,
  },
  figures: {
    available: true,
    variants: [],
    inputs: { pdf_text_layer: 'yes', scanned_pdf_or_image: 'partial', docx: 'no' },
    inputs_note: 'A scanned PDF page is one figure covering the page; an image upload or a .docx gives none.',
    mechanism: "Image paint operators in the page's operator list (pdfjs getOperatorList) with the transformation matrix in force, giving each image's box on the page.",
    measured: false,
    measurement: null,
  },
  chunks: {
    available: true,
    variants: [],
    inputs: { pdf_text_layer: 'yes', scanned_pdf_or_image: 'partial', docx: 'partial' },
    inputs_note: 'Built on the layout blocks, so scans and .docx files chunk with the limits layout has there.',
    mechanism: 'Six strategies over the layout blocks (by_page, by_title, by_element, by_sentence, fixed token windows with overlap, hybrid packing that lets small sections share); tokens are words and punctuation marks; a table is never cut.',
    measured: false,
    measurement: null,
  },
  split: {
    available: true,
    variants: [],
    inputs: { pdf_text_layer: 'yes', scanned_pdf_or_image: 'yes', docx: 'no' },
    inputs_note: 'Only the pages read (max_pages) are split; a .docx is one page.',
    mechanism: 'A new document starts where page numbering restarts at 1 (or the last page said "page N of N"), where a page opens with a document title (a larger line naming a type), where a page reads as another type, where the running header and footer change, where a page shares no font with the one before or the paper size changes, or where the same label carries another document number; page numbers that run on (in several languages) and fonts shared with the page before count against a break; cues are weighted and must add up.',
    measured: true,
    measurement: {
      figure: `boundary precision ${measuredFigures.split.boundary_precision.toFixed(2)}, recall ${measuredFigures.split.boundary_recall.toFixed(2)}`,
      metrics: measuredFigures.split,
      labelled_set: `${splitFigures.files} generated files of 2 to 4 documents (1 to 3 pages each; numbered "page k of n", "page k" or not at all; with or without a running header; the same type side by side too), ${splitFigures.boundaries} boundaries`,
    },
  },
  flag_below: {
    available: true,
    variants: [],
    inputs: { pdf_text_layer: 'yes', scanned_pdf_or_image: 'yes', docx: 'yes' },
    inputs_note: 'Lists what extraction found; it reads nothing itself.',
    mechanism: 'The extracted fields whose confidence is under the threshold, lowest first.',
    measured: false,
    measurement: null,
  },
};

/** GET /v1/extract/capabilities: every option, what it takes and does, and whether it is available here. */
export function extractCapabilities(): Capabilities {
  return {
    options: extractOptionNames.map((option) => ({
      option,
      accepts: settingsJsonSchema(option),
      ...descriptions[option],
      real_documents: realDocuments[option] ?? null,
    })),
    fields: {
      figure: `in the right field: total ${two(real.total)}, date ${two(real.date)}, invoice number ${two(real.number)}, issuer ${two(real.issuer)}; precision of values at confidence >= 0.9 ${two(real.precision_at_0_9)}; mean confidence of right values ${two(real.mean_confidence_right)}, of wrong ones ${two(real.mean_confidence_wrong)}; embedded e-invoices read ${Math.round(real.einvoice_read * real.einvoice_files)} of ${real.einvoice_files}`,
      metrics: real,
      labelled_set: realSet,
      truth: realInvoices.truth,
    },
    payslip_fields: templateFields(realPayslips, ['employer_name', 'employee_name', 'pay_period_start', 'pay_period_end', 'payment_date', 'gross_pay', 'net_pay', 'tax_withheld']),
    statement_fields: templateFields(realStatements, ['bank_name', 'account_holder', 'account_number', 'statement_period_start', 'statement_period_end', 'opening_balance', 'closing_balance']),
    limitations:
      'Extraction is not verification: options read what the document shows and do not judge whether it is true. Options see only the pages read (max_pages, at most 10). Each option states what it measured on generated documents (measurement) and, where measured, on real ones (real_documents); the real figures are lower.',
  };
}

/** A template's per-field figures on real documents, as its corpus test recorded them; each field counts the documents whose truth has it. */
function templateFields(
  measured: { corpus: string; truth: string; figures: Record<string, number> },
  fields: readonly string[],
): z.infer<typeof realMeasurement> {
  const figures = measured.figures;
  const each = fields.map((field) => `${field.replaceAll('_', ' ')} ${two(figures[field]!)} of ${figures[`${field}_documents`]}`);
  return { figure: `in the right field: ${each.join(', ')}; all fields ${two(figures.all_fields!)}`, metrics: figures, labelled_set: measured.corpus, truth: measured.truth };
}

function settingsJsonSchema(option: OptionName): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(extractOptionSettings[option], { io: 'input', unrepresentable: 'any' });
  return schema;
}

/**
 * Why a request's options cannot be served here, as a sentence for a 400 reply, or null when every option
 * it asks for is available. `options` is the request's option switches (name to `true`, a number or
 * settings), as the extract request schema gives them.
 */
export function unavailableOptionsDetail(options: Partial<Record<OptionName, unknown>>): string | null {
  const refused: string[] = [];
  for (const [name, value] of Object.entries(options) as [OptionName, unknown][]) {
    if (value === undefined || value === false) continue;
    const description = descriptions[name];
    if (!description.available) {
      refused.push(`option ${name} is not available`);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    for (const variant of description.variants) {
      if (!variant.available && (value as Record<string, unknown>)[variant.setting] === variant.value) refused.push(`${name} with ${variant.setting} ${variant.value} is not available (${variant.reason})`);
    }
  }
  if (refused.length === 0) return null;
  return `Unsupported extract option: ${refused.join('; ')}. See GET /v1/extract/capabilities for what this server offers.`;
}

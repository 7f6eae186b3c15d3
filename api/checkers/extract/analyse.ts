import { readDocument, type ReadDocument } from '../../documents/read.ts';
import type { IntakeDocument, PageText } from '../../documents/types.ts';
import type { Analysis, AnalysisContext } from '../types.ts';
import { classifyDocument, type ExtractDocumentType } from './classify.ts';
import { parseEInvoice, type EInvoice } from './einvoice.ts';
import { einvoiceFields } from './einvoice-fields.ts';
import { readInvoiceFields, type InvoiceField } from './invoice-fields.ts';
import { FieldLocator, labelledPairs } from './locate.ts';
import { readMt940 } from './mt940.ts';
import type { ExtractOptions, FieldRequest } from './options.ts';
import { extractOptionNames, extractOptionRunners, type ExtractedField, type OptionName } from './options/index.ts';
import type { GroundedField } from './options/grounding.ts';
import type { ExtractionResult } from './result.ts';
import { allTemplateLabels, templates, type FieldRule, type ValueKind } from './templates.ts';

const limitations =
  'Extraction is not verification, and the document is never stored: each value is read as the document shows it, not checked against any register, ' +
  'the other fields or the arithmetic, and a value that is absent or written in an unusual way is reported in not_found rather than guessed. ' +
  'Confidence says how the value was located and how clearly its page was read, not whether it is true.';

/** Options that, asked for alone, skip field extraction (spec, Extract parameter rules). */
const extractionFreeOptions = new Set<OptionName>(['classify', 'redact']);

/** Value shapes a field named like a template field takes even when the caller asked for plain text. */
const identifierKinds = new Set<ValueKind>(['abn', 'acn', 'bsb', 'account_number', 'reference', 'governing_law']);

type Mode = ExtractionResult['mode'];

/**
 * Structured fields from one document (spec, Extraction result): the caller's fields, a template's, or,
 * with neither, the fields of the type the document is classified as (every `Label: value` pair when no
 * type fits). Pages come from the text layer, OCR where a page has none.
 */
export const analyseExtraction: Analysis<ExtractOptions, ExtractionResult> = async (documents, options, context) => {
  const document = documents[0];
  if (!document) throw new Error('extract needs one document');
  context.progress?.('reading');
  const read = await readDocument(document, { maxPages: options.max_pages, renderScale: options.render_scale, ocr: true, embeddedFiles: true });
  return extractFromRead(document, read, options, context);
};

/** The extraction of a document already read (the corpus tests read each file once and extract from it). */
export async function extractFromRead(document: IntakeDocument, read: ReadDocument, options: ExtractOptions, context: Pick<AnalysisContext, 'progress'>): Promise<ExtractionResult> {
  context.progress?.('extracting');
  const mode = modeOf(options);
  const einvoice = embeddedInvoice(read);
  const classification = options.template ? null : classifyDocument(read.pages, einvoice !== null);
  const documentType: ExtractDocumentType | 'unrecognised' = options.template ?? classification!.document_type;
  const { fields, notFound } = mode === 'classify_only' || mode === 'redact_only' ? { fields: {}, notFound: [] } : extractFields(read.pages, options, documentType, mode, einvoice);
  const optionResults: Partial<Record<OptionName, unknown>> = {};
  for (const name of extractOptionNames) {
    if (!(name in options.options)) continue;
    context.progress?.(name);
    optionResults[name] = await extractOptionRunners[name]({ document, pages: read.pages, fields, settings: options.options[name] });
  }
  if (optionResults.grounding) groundFields(fields, optionResults.grounding as Record<string, GroundedField>);
  return {
    mode,
    document_type: documentType,
    fields,
    not_found: notFound,
    pages_read: read.pages.length,
    page_limit: options.max_pages,
    page_count: read.pageCount,
    capabilities_used: [...capabilitiesUsed(read.pages, options, documentType, mode, einvoice), ...Object.keys(optionResults)],
    // Each option's module declares its key's shape (tables' is the spec's); the runners return exactly that.
    ...(optionResults as Pick<ExtractionResult, 'tables'> & Record<string, unknown>),
    limitations,
  };
}

/** The first XML attachment that is an e-invoice (Factur-X, ZUGFeRD, XRechnung, UBL). */
function embeddedInvoice(read: ReadDocument): EInvoice | null {
  for (const file of read.embedded ?? []) {
    const invoice = parseEInvoice(new TextDecoder('utf-8').decode(file.bytes));
    if (invoice) return invoice;
  }
  return null;
}

/** The template fields the invoice reader fills, per template: its name for each. */
const invoiceFieldNames: Partial<Record<ExtractDocumentType, Partial<Record<InvoiceField, string>>>> = {
  tax_invoice: { supplier_name: 'supplier_name', invoice_number: 'invoice_number', invoice_date: 'invoice_date', due_date: 'due_date', buyer_name: 'buyer_name', subtotal: 'subtotal', tax: 'gst', total: 'total' },
  receipt: { supplier_name: 'seller_name', invoice_number: 'receipt_number', invoice_date: 'date', tax: 'gst', total: 'total' },
};

/**
 * An invoice's or receipt's core fields read by evidence (invoice-fields.ts: labels of every language, layout,
 * arithmetic) and from its embedded e-invoice where it has one (checked against the print), in place of the
 * label-beside-value reading, which stays for the fields the reader does not know (ABNs, payment method…).
 */
function readInvoiceInto(fields: Record<string, ExtractedField>, pages: PageText[], documentType: ExtractDocumentType, country: string | undefined, einvoice: EInvoice | null): void {
  const names = invoiceFieldNames[documentType];
  if (!names) return;
  const printed = readInvoiceFields(pages, { country, receipt: documentType === 'receipt' }).fields;
  const read = einvoice ? { ...printed, ...einvoiceFields(einvoice, pages, printed, country) } : printed;
  for (const [field, name] of Object.entries(names) as [InvoiceField, string][]) {
    const found = read[field];
    if (found) fields[name] = { value: found.value, confidence: found.confidence, page: found.page };
    // The locator's letterhead is any first line; where the reader, which knows titles, labels and numbers, names no issuer, none is given.
    else if (field === 'supplier_name') delete fields[name];
  }
}

/** With grounding, each field the text layer locates carries its box (spec: "gains bbox and text_layer_match"; null on scans). */
function groundFields(fields: Record<string, ExtractedField>, grounded: Record<string, GroundedField>): void {
  for (const [name, field] of Object.entries(fields)) {
    const place = grounded[name];
    if (!place) continue;
    field.bbox = place.bbox;
    field.text_layer_match = place.text_layer_match;
  }
}

function modeOf(options: ExtractOptions): Mode {
  if (options.fields && options.fields.length > 0) return 'fields';
  if (options.template) return 'template';
  const enabled = Object.keys(options.options) as OptionName[];
  if (enabled.length > 0 && enabled.every((name) => extractionFreeOptions.has(name))) return enabled.includes('classify') ? 'classify_only' : 'redact_only';
  return 'classified';
}

function extractFields(pages: PageText[], options: ExtractOptions, documentType: ExtractDocumentType | 'unrecognised', mode: Mode, einvoice: EInvoice | null): { fields: Record<string, ExtractedField>; notFound: string[] } {
  const pairs = labelledPairs(pages);
  const documentLabels = [...new Set(pairs.map((pair) => normaliseLabel(pair.label)))];
  const rules = [...(documentType === 'unrecognised' || (mode === 'fields' && !options.template) ? [] : templates[documentType].fields), ...(options.fields ?? []).map((field) => customRule(field, documentLabels))];
  const locator = new FieldLocator(pages, allLabels(rules), options.country);
  const fields: Record<string, ExtractedField> = {};
  const notFound: string[] = [];
  for (const rule of rules) {
    const found = locator.locate(rule);
    if (found) fields[rule.name] = found;
  }
  reconcileAmounts(rules, fields, locator);
  if (documentType === 'bank_statement') readMt940Into(fields, pages);
  if (documentType !== 'unrecognised' && !(mode === 'fields' && !options.template)) readInvoiceInto(fields, pages, documentType, options.country, einvoice);
  for (const rule of rules) if (!(rule.name in fields)) notFound.push(rule.name);
  if (mode === 'classified' && documentType === 'unrecognised') {
    for (const pair of pairs) {
      const name = snakeCase(pair.label);
      if (name !== '' && !(name in fields)) fields[name] = { value: pair.value, confidence: pair.confidence, page: pair.page };
    }
  }
  return { fields, notFound };
}

/**
 * An amount its template says is at least (or at most) another found amount, read against it: when it is not, the
 * next amount beside its label that is ("Gross Earnings  80.00  4,278.47" under a net pay of 3,096.49: 80.00 is
 * the hours), or none rather than one the document's own sums rule out.
 */
function reconcileAmounts(rules: FieldRule[], fields: Record<string, ExtractedField>, locator: FieldLocator): void {
  for (const rule of rules) {
    if (rule.kind !== 'amount' || (!rule.atLeast && !rule.atMost)) continue;
    const bound = (names: string[] | undefined) => (names ?? []).map((name) => fields[name]?.value).filter((value): value is number => typeof value === 'number');
    const floors = bound(rule.atLeast);
    const ceilings = bound(rule.atMost);
    const fits = (value: string | number | boolean) => typeof value === 'number' && floors.every((floor) => value >= floor) && ceilings.every((ceiling) => value <= ceiling);
    const found = fields[rule.name];
    if (!found || found.value === null || fits(found.value)) continue;
    const refound = locator.locate(rule, fits);
    if (refound) fields[rule.name] = refound;
    else delete fields[rule.name];
  }
}

/**
 * An MT940 file's tagged fields in place of any label reading; its first line is a header or a BIC, no letterhead, so
 * it names no bank unless a label does.
 */
function readMt940Into(fields: Record<string, ExtractedField>, pages: PageText[]): void {
  const tagged = readMt940(pages);
  if (!tagged) return;
  for (const [name, found] of Object.entries(tagged)) fields[name] = { value: found.value, confidence: found.confidence, page: found.page };
  const firstLine = pages[0]?.text.split('\n').find((line) => line.trim() !== '')?.trim();
  const bank = String(fields['bank_name']?.value ?? '');
  if (bank === firstLine || /^:\d{2}[A-Z]?:/.test(bank)) delete fields['bank_name'];
}

/** Every label of every template (so a cell goes to its longest label) plus the rules' own. */
function allLabels(rules: FieldRule[]): string[] {
  return [...allTemplateLabels(), ...rules.flatMap((rule) => [...rule.labels, ...(rule.rangeLabels ?? [])])];
}

/**
 * A caller's field as a rule: its name is a label, and so are the labels of any template field with the
 * same name or label ("Invoice No" finds "Invoice number:"), and any label, a template's or one the
 * document itself shows, that the description or question mentions ("What is the amount payable?"
 * finds "Amount payable:").
 */
function customRule(field: FieldRequest, documentLabels: string[]): FieldRule {
  const label = normaliseLabel(field.name);
  const hint = field.hint ? ` ${normaliseLabel(field.hint).replace(/[^\w\s]/g, ' ')} ` : '';
  const mentioned = (other: string) => other.length > 3 && hint.includes(` ${other} `);
  const related = Object.values(templates).flatMap((template) => template.fields.filter((rule) => rule.name === snakeCase(field.name) || rule.labels.includes(label) || rule.labels.some(mentioned)));
  const sameName = related.find((rule) => rule.name === snakeCase(field.name) || rule.labels.includes(label));
  const kind: ValueKind = field.type === 'text' && sameName && identifierKinds.has(sameName.kind) ? sameName.kind : field.type;
  return {
    name: field.name,
    kind,
    labels: [...new Set([label, ...related.flatMap((rule) => rule.labels), ...documentLabels.filter(mentioned)])],
    ...(sameName?.rangeLabels ? { rangeLabels: sameName.rangeLabels, rangeIndex: sameName.rangeIndex ?? 0 } : {}),
  };
}

function normaliseLabel(text: string): string {
  return text
    .toLowerCase()
    .replace(/[_?]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function snakeCase(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

function capabilitiesUsed(pages: PageText[], options: ExtractOptions, documentType: ExtractDocumentType | 'unrecognised', mode: Mode, einvoice: EInvoice | null): string[] {
  const used = new Set<string>();
  if (einvoice) used.add('read.embedded_einvoice');
  if (pages.some((page) => page.source === 'text_layer')) used.add('read.text_layer');
  if (pages.some((page) => page.source === 'ocr')) used.add('read.ocr');
  if (!options.template) used.add('classify.rules');
  if (mode === 'template' || mode === 'classified' || (mode === 'fields' && options.template)) used.add(documentType === 'unrecognised' ? 'fields.labelled_pairs' : `template.${documentType}`);
  if (mode === 'fields') used.add('fields.label_match');
  return [...used];
}

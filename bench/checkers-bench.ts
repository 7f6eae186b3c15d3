import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PDFDocument, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { analyseExtraction } from '../api/checkers/extract/analyse.ts';
import { extractRequestOptions } from '../api/checkers/extract/options.ts';
import type { ExtractionResult } from '../api/checkers/extract/result.ts';
import { analyseWarrant } from '../api/checkers/warrants/analyse.ts';
import type { WarrantAnalysis } from '../api/checkers/warrants/bundle.ts';
import { CACHE_HEADER } from '../api/checkers/_runner/answer.ts';
import type { IntakeDocument } from '../api/documents/types.ts';
import { startChild, stopChild } from './search-bench.ts';

/**
 * The document checkers' speed rows of `npm run bench` (issue 15 §5): (j) the warrant and extract analyses
 * on ten pages of a real text PDF against pdfjs-dist alone reading the same file's text, and (k) concurrent
 * warrant uploads through the API server.
 */

/** Timed rounds of (j) after the warm-up; the row reports each contender's median. */
const READING_ROUNDS = Number(process.env.BENCH_CHECKER_ROUNDS ?? 15);
/** Uploads at once in (k). */
const CONCURRENT_UPLOADS = 20;

const PAGE = { width: 595.28, height: 841.89, margin: 56 };
const FONT_SIZE = 10;
const LINE_HEIGHT = 17.5;
const LINES_PER_PAGE = 40;
/** Fixed dates, so the same variant always gives the same bytes. */
const DOCUMENT_DATE = new Date('2026-08-03T09:30:00+10:00');

const CLAUSES: readonly [string, string][] = [
  ['Definitions', 'In this Agreement, Business Day means a day other than a Saturday, Sunday or public holiday in Sydney; Deliverables means the reports, software, documents and other materials described in Schedule 1; and Fees means the amounts set out in Schedule 2, exclusive of GST unless stated otherwise.'],
  ['Term', 'This Agreement commences on the Commencement Date and continues for an initial term of twenty-four months, after which the Customer may extend it by up to two further periods of twelve months each by giving the Supplier written notice no later than thirty Business Days before the term expires.'],
  ['Services', 'The Supplier must provide the Services diligently, with the degree of skill and care expected of a competent provider of similar services, in accordance with all applicable laws, the Customer\'s reasonable directions and the service levels in Schedule 3, and using suitably qualified personnel.'],
  ['Personnel', 'The Supplier must ensure that the Specified Personnel perform the Services and must not replace any of them without the Customer\'s prior written consent, which must not be unreasonably withheld. Any replacement must have equivalent qualifications and experience and is subject to the same obligations.'],
  ['Fees and invoicing', 'In consideration of the Services the Customer must pay the Fees. The Supplier must issue a valid tax invoice at the end of each month for Services performed in that month, itemising the hours worked by each person, the applicable rates, any approved expenses, the GST payable and the total amount due.'],
  ['Payment', 'The Customer must pay each correctly rendered invoice within twenty days of receiving it. If the Customer disputes any part of an invoice, it must pay the undisputed portion and notify the Supplier of the disputed amount and its reasons, and the parties must then resolve the dispute under clause 14.'],
  ['Intellectual property', 'Ownership of all intellectual property rights in the Deliverables vests in the Customer on creation. The Supplier retains ownership of its pre-existing material and grants the Customer a perpetual, irrevocable, royalty-free, non-exclusive licence to use it to the extent it is incorporated in the Deliverables.'],
  ['Confidentiality', 'Each party must keep the other party\'s Confidential Information confidential and use it only for the purposes of this Agreement. This obligation does not apply to information that is public other than through a breach, or that a party is required by law or the rules of a stock exchange to disclose.'],
  ['Privacy', 'The Supplier must comply with the Privacy Act 1988 (Cth) and the Australian Privacy Principles when it collects, uses, stores or discloses Personal Information in connection with this Agreement, and must notify the Customer within two Business Days of becoming aware of any actual or suspected data breach.'],
  ['Insurance', 'The Supplier must hold public liability insurance of at least $20,000,000 per occurrence, professional indemnity insurance of at least $10,000,000 per claim and in the aggregate, and workers compensation insurance as required by law, and must provide certificates of currency on request.'],
  ['Liability', 'Each party\'s total liability under or in connection with this Agreement is limited to an amount equal to twice the total Fees payable under it, except for liability for personal injury or death, damage to real or tangible property, breach of confidentiality or privacy, or wilful misconduct.'],
  ['Termination', 'The Customer may terminate this Agreement for convenience by giving thirty days written notice, in which case it must pay for Services performed up to the date of termination and the Supplier\'s reasonable unavoidable costs directly incurred as a result, but not for any loss of anticipated profit.'],
  ['Default', 'Either party may terminate this Agreement immediately by written notice if the other party commits a material breach that is not capable of remedy, or fails to remedy a breach within fifteen Business Days of notice requiring it to do so, or suffers an insolvency event.'],
  ['Dispute resolution', 'A party claiming that a dispute has arisen must give the other party notice of it. Senior representatives of each party must meet within ten Business Days to attempt to resolve the dispute in good faith, failing which either party may refer the dispute to mediation by the Resolution Institute.'],
  ['Notices', 'A notice under this Agreement must be in writing and delivered by hand, prepaid post or email to the address of the recipient set out in the Details. A notice sent by email is taken to be received when the sender\'s system records that the email was sent, unless the sender receives a delivery failure notice.'],
  ['General', 'This Agreement is governed by the laws of New South Wales. It is the entire agreement between the parties about its subject matter and may be varied only in writing signed by both parties. No waiver of a right is effective unless in writing, and each provision is severable.'],
];

const ROLES: readonly { role: string; person: string; rate: number }[] = [
  { role: 'Principal consultant', person: 'J. Nguyen', rate: 245 },
  { role: 'Senior analyst', person: 'P. Okafor', rate: 185 },
  { role: 'Analyst', person: 'M. Rossi', rate: 140 },
  { role: 'Project coordinator', person: 'S. Tran', rate: 120 },
];
const TASKS = ['Stakeholder workshop', 'Current-state process mapping', 'Data extract and reconciliation', 'Options paper drafting', 'Steering committee briefing', 'Requirements interviews', 'Cost model update', 'Procurement plan review'];
const MILESTONES = ['Discovery report', 'Current-state assessment', 'Stakeholder engagement plan', 'Options analysis', 'Business case draft', 'Cost-benefit model', 'Implementation roadmap', 'Risk register', 'Final business case', 'Transition plan'];

/** One line of a page: text at the left margin (indented for clause bodies), and optionally text set flush right. */
interface Line {
  text: string;
  bold?: boolean;
  indent?: number;
  right?: string;
}

/**
 * A ten-page services agreement with its schedules as a supplier receives one: the parties with their ABNs,
 * sixteen numbered clauses of wrapped legal text, a schedule of deliverables, the rates, a month's timesheet
 * (dates, people, hours, tasks, amounts) with subtotal, GST and total, and execution blocks; forty lines on
 * every page. `variant` changes the agreement number, hours and amounts, so each variant's bytes differ.
 */
export async function agreementPdf(variant: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const number = `CA-2026-${4100 + variant}`;
  pdf.setTitle(`Services Agreement ${number}`);
  pdf.setAuthor('Department of Customer Service');
  pdf.setCreationDate(DOCUMENT_DATE);
  pdf.setModificationDate(DOCUMENT_DATE);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const lines = agreementLines(number, variant, (text, indent) => wrap(text, regular, PAGE.width - 2 * PAGE.margin - indent));
  const pageCount = Math.ceil(lines.length / LINES_PER_PAGE);
  for (let index = 0; index < pageCount; index++) {
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    drawLines(page, lines.slice(index * LINES_PER_PAGE, (index + 1) * LINES_PER_PAGE), regular, bold);
    page.drawText(`${number}  -  Page ${index + 1} of ${pageCount}`, { x: PAGE.margin, y: PAGE.margin / 2, size: 8, font: regular });
  }
  return pdf.save();
}

function agreementLines(number: string, variant: number, wrapText: (text: string, indent: number) => string[]): Line[] {
  const lines: Line[] = [
    { text: 'SERVICES AGREEMENT', bold: true, right: 'Date: 3 August 2026' },
    { text: `Agreement number ${number}` },
    { text: '' },
    { text: 'Details', bold: true },
    { text: 'Customer: Department of Customer Service (ABN 81 913 830 179)' },
    { text: 'Address: 2-24 Rawson Place, Haymarket NSW 2000' },
    { text: 'Supplier: Harbourline Advisory Pty Ltd (ABN 51 824 753 556)' },
    { text: 'Address: Level 9, 60 Margaret Street, Sydney NSW 2000' },
    { text: 'Commencement Date: 1 September 2026' },
    { text: 'Initial term: 24 months, with two options to extend of 12 months each' },
    { text: `Contract value: ${money(1_240_000 + variant * 1_000)} (excluding GST) for the initial term` },
    { text: '' },
  ];
  CLAUSES.forEach(([heading, body], index) => {
    lines.push({ text: `${index + 1}. ${heading}`, bold: true });
    for (const line of wrapText(body, 14)) lines.push({ text: line, indent: 14 });
    lines.push({ text: '' });
  });
  lines.push({ text: 'Schedule 1 - Deliverables', bold: true }, { text: '' }, { text: 'Milestone and deliverable', bold: true, right: 'Due date        Payment' });
  MILESTONES.forEach((milestone, index) => {
    lines.push({ text: `M${String(index + 1).padStart(2, '0')}  ${milestone}`, right: `${String(1 + ((index * 9 + variant) % 28)).padStart(2, '0')}/${String(9 + Math.floor(index / 4)).padStart(2, '0')}/2026     ${money(9_800 + index * 1_450 + variant * 10)}` });
    for (const line of wrapText(`Accepted when the Customer's contract manager confirms in writing that the ${milestone.toLowerCase()} meets the acceptance criteria in Schedule 3.`, 28)) lines.push({ text: line, indent: 28 });
  });
  lines.push({ text: '' }, { text: 'Schedule 2 - Fees', bold: true }, { text: '' }, { text: 'Role', bold: true, right: 'Name          Hourly rate (excl. GST)' });
  for (const { role, person, rate } of ROLES) lines.push({ text: role, right: `${person}          ${money(rate)}` });
  lines.push({ text: '' }, { text: 'Timesheets from 1 September 2026 (attached to the monthly invoices)', bold: true });
  lines.push({ text: 'Date          Person          Task', bold: true, right: 'Hours     Amount' });
  // Every working day from 1 September 2026, a line for each person, until the timesheets fill page nine.
  const closingLines = 17;
  let subtotal = 0;
  for (let day = 0, entry = 0; lines.length < 10 * LINES_PER_PAGE - closingLines; day++) {
    const date = new Date(Date.UTC(2026, 8, 1 + day));
    if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
    const label = date.toLocaleDateString('en-AU', { weekday: 'short', day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' });
    for (const { role, person, rate } of ROLES) {
      if (lines.length >= 10 * LINES_PER_PAGE - closingLines) break;
      const hours = 4 + ((entry * 7 + variant) % 9) / 2;
      subtotal += hours * rate;
      lines.push({ text: `${label}    ${person} (${role})    ${TASKS[(entry * 3 + variant) % TASKS.length]}`, right: `${hours.toFixed(1)}     ${money(hours * rate)}` });
      entry++;
    }
  }
  const gst = Math.round(subtotal * 10) / 100;
  lines.push({ text: '' }, { text: 'Subtotal (excluding GST)', right: money(subtotal) }, { text: 'GST (10%)', right: money(gst) });
  lines.push({ text: 'Total of the timesheets (including GST)', bold: true, right: money(subtotal + gst) }, { text: '' });
  lines.push({ text: 'Executed as an agreement', bold: true }, { text: '' });
  for (const party of ['the Customer by its authorised delegate', 'Harbourline Advisory Pty Ltd under s 127 of the Corporations Act 2001 (Cth)']) {
    lines.push({ text: `Signed for ${party}` }, { text: '' }, { text: 'Signature: ______________________________', right: 'Date: ____ / ____ / 2026' });
    lines.push({ text: 'Name: ___________________________________', right: 'Position: __________________' }, { text: '' });
  }
  return lines;
}

function money(amount: number): string {
  return `$${amount.toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

function wrap(text: string, font: PDFFont, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (font.widthOfTextAtSize(candidate, FONT_SIZE) > width && line !== '') {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

function drawLines(page: PDFPage, lines: Line[], regular: PDFFont, bold: PDFFont): void {
  lines.forEach((line, index) => {
    const y = PAGE.height - PAGE.margin - index * LINE_HEIGHT;
    const font = line.bold ? bold : regular;
    if (line.text !== '') page.drawText(line.text, { x: PAGE.margin + (line.indent ?? 0), y, size: FONT_SIZE, font });
    if (line.right) page.drawText(line.right, { x: PAGE.width - PAGE.margin - font.widthOfTextAtSize(line.right, FONT_SIZE), y, size: FONT_SIZE, font });
  });
}

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/**
 * The baseline of (j): pdfjs-dist alone opening the file and reading every page's text content, nothing
 * else. It gets the same standard-font and character-map folders api/documents/pdf.ts gives it, since
 * reading text set in a standard font loads that font's data either way. Returns the runs of text read.
 */
export async function pdfjsTextRuns(bytes: Uint8Array): Promise<number> {
  const pdf = await pdfjs.getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl: pathToFileURL(join(pdfjsRoot, 'standard_fonts') + '/').href,
    cMapUrl: pathToFileURL(join(pdfjsRoot, 'cmaps') + '/').href,
    cMapPacked: true,
    verbosity: 0,
  }).promise;
  try {
    let runs = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      runs += (await page.getTextContent()).items.length;
      page.cleanup();
    }
    return runs;
  } finally {
    await pdf.destroy();
  }
}

export interface TextPdfTimes {
  pages: number;
  bytes: number;
  /** Text runs pdfjs read: shows the baseline read the whole text. */
  textRuns: number;
  /** Median milliseconds of each contender over `rounds`. */
  pdfjsMs: number;
  warrantMs: number;
  extractMs: number;
  rounds: number;
  /** What the analyses found, to show each did its whole work: the warrant's band and signals, the type extract classified and the fields it filled. */
  warrantBand: string;
  warrantSignals: number;
  extractType: string;
  extractFound: number;
  extractAsked: number;
}

/** The real document (j) reads: 18F's ADS BPA request for quotes (GSA, 19 pages, text layer; fixtures/corpora/tenders/PROVENANCE.tsv). */
const REAL_TEXT_PDF = new URL('../fixtures/corpora/tenders/18f-ads-bpa-ads_rfq_final.pdf', import.meta.url);
const READING_PAGES = 10;

/**
 * Exactly the first ten pages of the real request for quotes, cut with pdf-lib (its pages copied as they are,
 * fonts and content streams untouched), so (j) measures a real file of the length.
 */
export async function realTenPagePdf(): Promise<Uint8Array> {
  const source = await PDFDocument.load(await readFile(REAL_TEXT_PDF), { updateMetadata: false });
  const cut = await PDFDocument.create({ updateMetadata: false });
  for (const page of await cut.copyPages(source, Array.from({ length: READING_PAGES }, (_, i) => i))) cut.addPage(page);
  return cut.save();
}

/**
 * (j) Ten pages of a real request for quotes read by pdfjs-dist alone, inspected by `analyseWarrant` and
 * extracted by `analyseExtraction` (no template: it classifies the document first; no options), in this process. Two warm-up calls each (module
 * loading, JIT), then `READING_ROUNDS` rounds calling all three, the order rotating each round so machine
 * load falls on every contender alike.
 */
export async function benchTextPdf(): Promise<TextPdfTimes> {
  const bytes = await realTenPagePdf();
  const document: IntakeDocument = { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind: 'pdf', mime: 'application/pdf', filename: 'ads-rfq-pages-1-10.pdf' };
  const context = { now: '2026-09-25T01:00:00.000Z' };
  const extractOptions = extractRequestOptions.parse({});
  let textRuns = 0;
  let warrant: WarrantAnalysis | undefined;
  let extraction: ExtractionResult | undefined;
  const contenders = {
    pdfjs: async () => { textRuns = await pdfjsTextRuns(bytes); },
    warrant: async () => { warrant = await analyseWarrant([document], {}, context); },
    extract: async () => { extraction = await analyseExtraction([document], extractOptions, context); },
  };
  const names = Object.keys(contenders) as (keyof typeof contenders)[];
  const times: Record<keyof typeof contenders, number[]> = { pdfjs: [], warrant: [], extract: [] };
  for (let warmUp = 0; warmUp < 2; warmUp++) for (const name of names) await contenders[name]();
  for (let round = 0; round < READING_ROUNDS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      const started = performance.now();
      await contenders[name]();
      times[name].push(performance.now() - started);
    }
  }
  if (!warrant || warrant.risk_band === 'error') throw new Error(`bench: the warrant analysis failed on the request for quotes: ${warrant?.summary.band_rule}`);
  if (!extraction || extraction.pages_read !== warrant.summary.pages) throw new Error(`bench: the extraction read ${extraction?.pages_read} pages of ${warrant.summary.pages}`);
  return {
    pages: warrant.summary.pages ?? 0, bytes: bytes.length, textRuns, rounds: READING_ROUNDS,
    pdfjsMs: median(times.pdfjs), warrantMs: median(times.warrant), extractMs: median(times.extract),
    warrantBand: warrant.risk_band, warrantSignals: warrant.signals.length, extractType: extraction.document_type,
    extractFound: Object.keys(extraction.fields).length, extractAsked: Object.keys(extraction.fields).length + extraction.not_found.length,
  };
}

/**
 * A distinct upload of about 1 MB for (k): agreement `variant` with an eleventh page, the signed execution
 * page as a photographed JPEG of 1280 × 960 pixels (about 1 MB; its pixels seeded by `variant`, so no
 * two uploads share bytes and the content cache never answers).
 */
export async function uploadPdf(variant: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(await agreementPdf(variant), { updateMetadata: false });
  const [width, height] = [1280, 960];
  const pixels = createHash('shake256', { outputLength: width * height * 3 }).update(`execution page ${variant}`).digest();
  const photo = await pdf.embedJpg(await sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer());
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  const drawnWidth = PAGE.width - 2 * PAGE.margin;
  page.drawImage(photo, { x: PAGE.margin, y: PAGE.height - PAGE.margin - (drawnWidth * height) / width, width: drawnWidth, height: (drawnWidth * height) / width });
  return pdf.save();
}

export interface UploadTimes {
  uploads: number;
  meanBytes: number;
  p50Ms: number;
  p99Ms: number;
  /** From the first request sent to the last reply read. */
  wallMs: number;
  /** One sentence per upload that did not get a fresh warrant (status and detail, a cache hit, or an engine error). */
  failures: string[];
}

/**
 * (k) `CONCURRENT_UPLOADS` warrant uploads at once through the API server, each a distinct PDF of about
 * 1 MB (multipart `file`, with an API key). The server runs as `npm run serve` starts it, on a data folder
 * of its own (no release: the checkers need none), after four uploads at once have loaded the analysis
 * threads. An upload succeeds when it answers 200 with a fresh warrant whose band is not `error`.
 */
export async function benchWarrantUploads(launch: { dataDir: string; env: Record<string, string>; nodeArgs: string[]; headers: Record<string, string> }): Promise<UploadTimes> {
  const warmUps = await Promise.all([0, 1, 2, 3].map((i) => uploadPdf(1000 + i)));
  const uploads = await Promise.all(Array.from({ length: CONCURRENT_UPLOADS }, (_, i) => uploadPdf(i)));
  const api = await startChild('../api/server.ts', ['--data-dir', launch.dataDir, '--port', '0'], launch.env, launch.nodeArgs);
  try {
    const warmUpFailures = (await Promise.all(warmUps.map((bytes, i) => uploadWarrant(api.origin, bytes, `warm-up-${i}.pdf`, launch.headers)))).flatMap((reply) => reply.failure ?? []);
    if (warmUpFailures.length > 0) throw new Error(`bench: warrant uploads fail before (k): ${warmUpFailures.join('; ')}`);
    const started = performance.now();
    const replies = await Promise.all(uploads.map((bytes, i) => uploadWarrant(api.origin, bytes, `agreement-${i}.pdf`, launch.headers)));
    const wallMs = performance.now() - started;
    const latencies = replies.map((reply) => reply.ms).sort((a, b) => a - b);
    return {
      uploads: uploads.length,
      meanBytes: uploads.reduce((sum, bytes) => sum + bytes.length, 0) / uploads.length,
      p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), wallMs,
      failures: replies.flatMap((reply) => reply.failure ?? []),
    };
  } finally {
    await stopChild(api.child);
  }
}

async function uploadWarrant(origin: string, bytes: Uint8Array, filename: string, headers: Record<string, string>): Promise<{ ms: number; failure?: string }> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), filename);
  const started = performance.now();
  try {
    const response = await fetch(`${origin}/v1/warrants`, { method: 'POST', headers, body: form });
    const text = await response.text();
    const ms = performance.now() - started;
    if (response.status !== 200) return { ms, failure: `${filename}: ${response.status} ${text.slice(0, 200)}` };
    if (response.headers.get(CACHE_HEADER) === 'hit') return { ms, failure: `${filename}: answered from the content cache` };
    if ((JSON.parse(text) as { risk_band?: string }).risk_band === 'error') return { ms, failure: `${filename}: the engine gave an error warrant` };
    return { ms };
  } catch (error) {
    return { ms: performance.now() - started, failure: `${filename}: ${String(error)}` };
  }
}

function median(values: number[]): number {
  return percentile(values.toSorted((a, b) => a - b), 0.5);
}

/** The nearest-rank percentile of ascending `sorted` values. */
function percentile(sorted: number[], share: number): number {
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)]!;
}

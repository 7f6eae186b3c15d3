import { PDFDocument, PDFName, PDFOperator, StandardFonts, rgb, type PDFFont } from 'pdf-lib';
import { between, pick, withSeededMathRandom, type Random } from './random.ts';
import { seededRandom } from '../seeded-random.ts';

/**
 * Clean originals for the warrant corpus: invoices, letters, statements and certificates laid out as the
 * software a business uses would lay them out, described as a list of drawing steps (so an edit can change
 * one step and draw the document again) and drawn with pdf-lib.
 */

export interface TextStep {
  kind: 'text';
  text: string;
  x: number;
  /** Baseline, in PDF points from the bottom. */
  y: number;
  size: number;
  bold?: boolean;
  align?: 'left' | 'right' | 'center';
  /** A named role an edit can find: 'total', 'gst', 'subtotal', 'item-amount-2', 'amount'. */
  role?: string;
}

export interface RectStep {
  kind: 'rect';
  x: number;
  y: number;
  width: number;
  height: number;
  fill?: [number, number, number];
  stroke?: [number, number, number];
}

/** Raw operators, for edits that leave traces only an editor leaves (a marked-content tag, a second font). */
export interface OperatorStep {
  kind: 'operators';
  operators: PDFOperator[];
}

export type Step = TextStep | RectStep | OperatorStep;

export interface Producer {
  name: string;
  producer: string;
  creator: string;
  /** Whether this software writes an XMP packet beside the Info dictionary. */
  xmp: boolean;
  family: 'helvetica' | 'times' | 'courier';
}

export interface DocumentSpec {
  id: string;
  type: 'invoice' | 'letter' | 'statement' | 'certificate';
  producer: Producer;
  title: string;
  author: string;
  created: Date;
  modified: Date;
  pages: Step[][];
  /** Fonts beyond the standard family (name → BaseFont), for the duplicate-subset edit. */
  extraFonts?: Record<string, string>;
  /** Info values that differ from what the producer writes (edits of the metadata only). */
  info?: { producer?: string; creator?: string };
  seed: number;
}

export const producers: Producer[] = [
  { name: 'word', producer: 'Microsoft® Word for Microsoft 365', creator: 'Microsoft® Word for Microsoft 365', xmp: true, family: 'times' },
  { name: 'libreoffice', producer: 'LibreOffice 7.6', creator: 'Writer', xmp: false, family: 'helvetica' },
  { name: 'myob', producer: 'iText® 7.2.5 ©2000-2023 iText Group NV', creator: 'MYOB AccountRight', xmp: false, family: 'helvetica' },
  { name: 'chrome', producer: 'Skia/PDF m120', creator: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36', xmp: false, family: 'helvetica' },
  { name: 'bi-publisher', producer: 'Oracle BI Publisher 12.2.1.4.0', creator: 'Oracle BI Publisher 12.2.1.4.0', xmp: false, family: 'courier' },
  { name: 'quartz', producer: 'macOS Version 14.1 (Build 23B74) Quartz PDFContext', creator: 'Pages', xmp: true, family: 'times' },
  { name: 'crystal', producer: 'Crystal Reports', creator: 'Crystal Reports', xmp: false, family: 'helvetica' },
  { name: 'quickbooks', producer: 'ReportLab PDF Library - www.reportlab.com', creator: 'QuickBooks Online', xmp: true, family: 'helvetica' },
];

const businesses = ['Harbour Plumbing Pty Ltd', 'Red Gum Electrical', 'Southern Cross Cleaning Co', 'Blue Wren Landscaping', 'Kestrel IT Services Pty Ltd', 'Coastal Catering Group', 'Ironbark Building Supplies', 'Wattle Bookkeeping', 'Mallee Freight Lines', 'Bluestone Legal'];
const people = ['Priya Raman', 'Tom Nguyen', 'Sarah Mitchell', 'James O’Connor', 'Mei Chen', 'Liam Walker', 'Aroha Ngata', 'Daniel Costa', 'Grace Kim', 'Oliver Smith'];
const streets = ['12 Wharf Street, Fremantle WA 6160', '4/88 Chapel Road, Bankstown NSW 2200', '301 Flinders Lane, Melbourne VIC 3000', '17 Lagoon Drive, Cairns QLD 4870', '9 Hindley Street, Adelaide SA 5000', '55 Salamanca Place, Hobart TAS 7000'];
const lineItems = ['Call-out fee', 'Labour (hours)', 'Copper pipe 15 mm', 'Hot water valve', 'Site inspection', 'Network switch 24-port', 'Cat6 cable 305 m', 'Installation', 'Monthly cleaning service', 'Window cleaning', 'Turf supply (m2)', 'Garden mulch (m3)', 'Consulting', 'Travel', 'Catering for 40 guests', 'Equipment hire', 'Freight Sydney to Brisbane', 'Pallet handling', 'Bookkeeping (monthly)', 'BAS lodgement'];

const money = (value: number): string => `$${value.toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const cents = (value: number): number => Math.round(value * 100) / 100;
const dayText = (date: Date): string => date.toLocaleDateString('en-AU', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const abn = (random: Random): string => `${between(random, 10, 99)} ${between(random, 100, 999)} ${between(random, 100, 999)} ${between(random, 100, 999)}`;

function dateBetween(random: Random): Date {
  // 2024-01-01 .. 2025-10-31, at office hours UTC.
  const start = Date.UTC(2024, 0, 1);
  const days = between(random, 0, 669);
  return new Date(start + days * 86_400_000 + between(random, 0, 8 * 3600) * 1000 + 22 * 3600 * 1000);
}

function header(random: Random, business: string, title: string): Step[] {
  return [
    { kind: 'text', text: business, x: 50, y: 790, size: 16, bold: true },
    { kind: 'text', text: `ABN ${abn(random)}`, x: 50, y: 772, size: 9 },
    { kind: 'text', text: pick(random, streets), x: 50, y: 760, size: 9 },
    { kind: 'text', text: title, x: 545, y: 790, size: 14, bold: true, align: 'right' },
  ];
}

function invoice(random: Random, created: Date): { title: string; author: string; pages: Step[][] } {
  const business = pick(random, businesses);
  const number = `INV-${between(random, 1000, 9999)}`;
  const steps: Step[] = [
    ...header(random, business, 'TAX INVOICE'),
    { kind: 'text', text: `Invoice number  ${number}`, x: 545, y: 770, size: 9, align: 'right' },
    { kind: 'text', text: `Issue date  ${dayText(created)}`, x: 545, y: 758, size: 9, align: 'right' },
    { kind: 'text', text: 'Bill to', x: 50, y: 712, size: 9, bold: true },
    { kind: 'text', text: pick(random, people), x: 50, y: 700, size: 10 },
    { kind: 'text', text: pick(random, streets), x: 50, y: 688, size: 10 },
    { kind: 'rect', x: 45, y: 614, width: 505, height: 18, fill: [0.9, 0.92, 0.95] },
    { kind: 'text', text: 'Description', x: 50, y: 620, size: 10, bold: true },
    { kind: 'text', text: 'Qty', x: 330, y: 620, size: 10, bold: true, align: 'right' },
    { kind: 'text', text: 'Unit price', x: 430, y: 620, size: 10, bold: true, align: 'right' },
    { kind: 'text', text: 'Amount', x: 545, y: 620, size: 10, bold: true, align: 'right' },
  ];
  const count = between(random, 2, 7);
  const chosen = [...lineItems].sort(() => random() - 0.5).slice(0, count);
  let subtotal = 0;
  chosen.forEach((description, index) => {
    const quantity = description.includes('hours') ? between(random, 1, 16) / 2 : between(random, 1, 12);
    const unit = cents(between(random, 500, 60000) / 100);
    const amount = cents(quantity * unit);
    subtotal = cents(subtotal + amount);
    const y = 596 - index * 18;
    steps.push(
      { kind: 'text', text: description, x: 50, y, size: 10 },
      { kind: 'text', text: String(quantity), x: 330, y, size: 10, align: 'right' },
      { kind: 'text', text: money(unit), x: 430, y, size: 10, align: 'right' },
      { kind: 'text', text: money(amount), x: 545, y, size: 10, align: 'right', role: `item-amount-${index}` },
    );
  });
  const gst = cents(subtotal * 0.1);
  const top = 596 - count * 18 - 6;
  steps.push(
    { kind: 'rect', x: 45, y: top + 8, width: 505, height: 0.8, fill: [0.6, 0.6, 0.6] },
    { kind: 'text', text: 'Subtotal', x: 320, y: top - 10, size: 10 },
    { kind: 'text', text: money(subtotal), x: 545, y: top - 10, size: 10, align: 'right', role: 'subtotal' },
    { kind: 'text', text: 'GST (10%)', x: 320, y: top - 28, size: 10 },
    { kind: 'text', text: money(gst), x: 545, y: top - 28, size: 10, align: 'right', role: 'gst' },
    { kind: 'text', text: 'Total (incl. GST)', x: 320, y: top - 48, size: 11, bold: true },
    { kind: 'text', text: money(cents(subtotal + gst)), x: 545, y: top - 48, size: 11, bold: true, align: 'right', role: 'total' },
    { kind: 'text', text: `Payment terms: ${pick(random, [7, 14, 30])} days. Pay by EFT to BSB ${between(random, 100, 999)}-${between(random, 100, 999)}, account ${between(random, 10000000, 99999999)}, reference ${number}.`, x: 50, y: 120, size: 8.5 },
    { kind: 'text', text: 'Thank you for your business.', x: 50, y: 106, size: 8.5 },
  );
  return { title: `Tax invoice ${number}`, author: business, pages: [steps] };
}

function wrapText(text: string, width: number, size: number, measure: (text: string, size: number) => number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (measure(next, size) > width && line) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** Average Helvetica advance is about half the size: close enough to wrap letters before the font is known. */
const roughWidth = (text: string, size: number): number => text.length * size * 0.5;

function letter(random: Random, created: Date): { title: string; author: string; pages: Step[][] } {
  const business = pick(random, businesses);
  const recipient = pick(random, people);
  const signer = pick(random, people.filter((person) => person !== recipient));
  const amount = money(cents(between(random, 20000, 900000) / 100));
  const topics = [
    `We confirm that your account with ${business} is in good standing and that the balance of ${amount} shown on our records was paid in full on ${dayText(created)}.`,
    `Thank you for meeting with our team last week. As discussed, the revised quotation for the works comes to ${amount} including GST, and is valid for thirty days from the date of this letter.`,
    `This letter confirms the employment of ${recipient} with ${business} since ${between(random, 2015, 2023)}, currently in a full-time role with an annual salary of ${amount} before tax.`,
  ];
  const paragraphs = [
    pick(random, topics),
    'Should you need anything further, please contact our office during business hours and quote the reference above so we can find your file quickly.',
    'We appreciate your continued business and look forward to working with you again this year.',
  ];
  const steps: Step[] = [
    ...header(random, business, ''),
    { kind: 'text', text: dayText(created), x: 50, y: 720, size: 11 },
    { kind: 'text', text: recipient, x: 50, y: 690, size: 11 },
    { kind: 'text', text: pick(random, streets), x: 50, y: 676, size: 11 },
    { kind: 'text', text: `Our reference: ${business.slice(0, 3).toUpperCase()}/${between(random, 1000, 9999)}`, x: 50, y: 646, size: 11, bold: true },
    { kind: 'text', text: `Dear ${recipient.split(' ')[0]},`, x: 50, y: 620, size: 11 },
  ];
  let y = 596;
  for (const [index, paragraph] of paragraphs.entries()) {
    for (const line of wrapText(paragraph, 470, 11, roughWidth)) {
      steps.push({ kind: 'text', text: line, x: 50, y, size: 11, ...(index === 0 && line.includes(amount) ? { role: 'amount' } : {}) });
      y -= 15;
    }
    y -= 10;
  }
  steps.push({ kind: 'text', text: 'Yours sincerely,', x: 50, y: y - 10, size: 11 }, { kind: 'text', text: signer, x: 50, y: y - 50, size: 11, bold: true }, { kind: 'text', text: pick(random, ['Office Manager', 'Director', 'Accounts Manager', 'Human Resources']), x: 50, y: y - 64, size: 10 });
  return { title: `Letter to ${recipient}`, author: signer, pages: [steps.filter((step) => step.kind !== 'text' || step.text !== '')] };
}

function statement(random: Random, created: Date): { title: string; author: string; pages: Step[][] } {
  const bank = pick(random, ['Bank of the Southern Ocean', 'Eucalypt Credit Union', 'Tasman Savings Bank']);
  const holder = pick(random, people);
  const rows = between(random, 12, 40);
  let balance = cents(between(random, 50000, 900000) / 100);
  const opening = balance;
  const pages: Step[][] = [];
  let page: Step[] = [];
  const start = (first: boolean): void => {
    page = [
      { kind: 'text', text: bank, x: 50, y: 790, size: 15, bold: true },
      { kind: 'text', text: first ? 'Account statement' : 'Account statement (continued)', x: 545, y: 790, size: 12, align: 'right' },
      { kind: 'text', text: `${holder}  ·  BSB ${between(random, 100, 999)}-${between(random, 100, 999)}  ·  Account ${between(random, 10000000, 99999999)}`, x: 50, y: 768, size: 9 },
      { kind: 'rect', x: 45, y: 724, width: 505, height: 18, fill: [0.93, 0.93, 0.93] },
      { kind: 'text', text: 'Date', x: 50, y: 730, size: 9, bold: true },
      { kind: 'text', text: 'Transaction', x: 120, y: 730, size: 9, bold: true },
      { kind: 'text', text: 'Debit', x: 390, y: 730, size: 9, bold: true, align: 'right' },
      { kind: 'text', text: 'Credit', x: 465, y: 730, size: 9, bold: true, align: 'right' },
      { kind: 'text', text: 'Balance', x: 545, y: 730, size: 9, bold: true, align: 'right' },
    ];
    if (first) page.push({ kind: 'text', text: `Opening balance  ${money(opening)}`, x: 50, y: 748, size: 9 });
  };
  start(true);
  let y = 708;
  const payees = ['EFTPOS Woolworths', 'Salary ACME Pty Ltd', 'BPAY Origin Energy', 'Transfer to savings', 'ATM withdrawal', 'Direct debit Telstra', 'EFTPOS Bunnings', 'Interest', 'Card purchase Qantas', 'Rent payment'];
  const day = new Date(created.getTime() - 30 * 86_400_000);
  for (let index = 0; index < rows; index++) {
    if (y < 90) {
      pages.push(page);
      start(false);
      y = 708;
    }
    const payee = pick(random, payees);
    const credit = /Salary|Interest/.test(payee);
    const amount = cents(between(random, 500, credit ? 450000 : 60000) / 100);
    balance = cents(balance + (credit ? amount : -amount));
    const date = new Date(day.getTime() + index * 86_400_000 * 0.7);
    page.push(
      { kind: 'text', text: date.toLocaleDateString('en-AU', { day: '2-digit', month: 'short', timeZone: 'UTC' }), x: 50, y, size: 9 },
      { kind: 'text', text: payee, x: 120, y, size: 9 },
      { kind: 'text', text: credit ? '' : money(amount), x: 390, y, size: 9, align: 'right' },
      { kind: 'text', text: credit ? money(amount) : '', x: 465, y, size: 9, align: 'right' },
      { kind: 'text', text: money(balance), x: 545, y, size: 9, align: 'right' },
    );
    y -= 16;
  }
  page.push({ kind: 'text', text: `Closing balance  ${money(balance)}`, x: 50, y: y - 12, size: 10, bold: true, role: 'amount' });
  pages.push(page);
  return { title: `Statement for ${holder}`, author: bank, pages: pages.map((steps) => steps.filter((step) => step.kind !== 'text' || step.text !== '')) };
}

function certificate(random: Random, created: Date): { title: string; author: string; pages: Step[][] } {
  const issuer = pick(random, businesses);
  const holder = pick(random, people);
  const kind = pick(random, ['Certificate of Completion', 'Certificate of Currency', 'Certificate of Compliance']);
  const number = `C${between(random, 100000, 999999)}`;
  const steps: Step[] = [
    { kind: 'rect', x: 30, y: 30, width: 535, height: 782, stroke: [0.3, 0.35, 0.5] },
    { kind: 'text', text: kind, x: 297, y: 700, size: 26, bold: true, align: 'center' },
    { kind: 'text', text: 'This is to certify that', x: 297, y: 640, size: 13, align: 'center' },
    { kind: 'text', text: holder, x: 297, y: 600, size: 22, bold: true, align: 'center', role: 'amount' },
    { kind: 'text', text: pick(random, ['has completed Work Health and Safety Induction (CPCWHS1001)', 'holds public liability cover of $20,000,000 with this insurer', 'has met the requirements of AS/NZS 3000:2018 wiring rules']), x: 297, y: 560, size: 12, align: 'center' },
    { kind: 'text', text: `Issued ${dayText(created)} by ${issuer}`, x: 297, y: 500, size: 11, align: 'center' },
    { kind: 'text', text: `Certificate number ${number}`, x: 297, y: 482, size: 10, align: 'center' },
    { kind: 'rect', x: 200, y: 380, width: 195, height: 0.8, fill: [0.2, 0.2, 0.2] },
    { kind: 'text', text: pick(random, people), x: 297, y: 364, size: 10, align: 'center' },
    { kind: 'text', text: 'Authorised officer', x: 297, y: 350, size: 9, align: 'center' },
  ];
  return { title: `${kind} ${number}`, author: issuer, pages: [steps] };
}

const makers = { invoice, letter, statement, certificate };

export function cleanSpec(index: number): DocumentSpec {
  const random = seededRandom(1000 + index);
  const producer = producers[index % producers.length]!;
  const types = ['invoice', 'letter', 'statement', 'certificate', 'invoice'] as const;
  const type = types[Math.floor(index / producers.length) % types.length]!;
  const created = dateBetween(random);
  // Most documents are saved once; some a few minutes later (a second save by the same program).
  const modified = random() < 0.6 ? created : new Date(created.getTime() + between(random, 1, 40) * 60_000);
  const content = makers[type](random, created);
  return { id: `${type}-${producer.name}-${String(index).padStart(2, '0')}`, type, producer, created, modified, seed: 5000 + index, ...content };
}

const fontNames = {
  helvetica: [StandardFonts.Helvetica, StandardFonts.HelveticaBold],
  times: [StandardFonts.TimesRoman, StandardFonts.TimesRomanBold],
  courier: [StandardFonts.Courier, StandardFonts.CourierBold],
} as const;

const iso = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

function xmpPacket(spec: DocumentSpec): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    `<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" pdf:Producer="${spec.producer.producer}" xmp:CreatorTool="${spec.producer.creator}" xmp:CreateDate="${iso(spec.created)}" xmp:ModifyDate="${iso(spec.modified)}">`,
    `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${spec.title}</rdf:li></rdf:Alt></dc:title>`,
    '</rdf:Description></rdf:RDF></x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}

export interface RenderOptions {
  /** Called with the document before it is saved: attachments, actions. */
  finish?: (document: PDFDocument) => Promise<void> | void;
}

/** Draws a spec with pdf-lib; the same spec always gives the same bytes. */
export async function renderSpec(spec: DocumentSpec, options: RenderOptions = {}): Promise<Uint8Array> {
  return withSeededMathRandom(spec.seed, async () => {
    const document = await PDFDocument.create({ updateMetadata: false });
    const [regularName, boldName] = fontNames[spec.producer.family];
    const regular = await document.embedFont(regularName);
    const bold = await document.embedFont(boldName);
    const extra = Object.entries(spec.extraFonts ?? {}).map(([key, baseFont]) => [key, document.context.register(document.context.obj({ Type: 'Font', Subtype: 'TrueType', BaseFont: baseFont, Encoding: 'WinAnsiEncoding' }))] as const);
    for (const steps of spec.pages) {
      const page = document.addPage([595.28, 841.89]);
      for (const [key, ref] of extra) page.node.setFontDictionary(PDFName.of(key), ref);
      for (const step of steps) {
        if (step.kind === 'operators') page.pushOperators(...step.operators);
        else if (step.kind === 'rect') {
          page.drawRectangle({ x: step.x, y: step.y, width: step.width, height: step.height, ...(step.fill ? { color: rgb(...step.fill) } : {}), ...(step.stroke ? { borderColor: rgb(...step.stroke), borderWidth: 1.5 } : {}) });
        } else {
          const font: PDFFont = step.bold ? bold : regular;
          const width = font.widthOfTextAtSize(step.text, step.size);
          const x = step.align === 'right' ? step.x - width : step.align === 'center' ? step.x - width / 2 : step.x;
          page.drawText(step.text, { x, y: step.y, size: step.size, font, color: rgb(0.1, 0.1, 0.12) });
        }
      }
    }
    document.setTitle(spec.title);
    document.setAuthor(spec.author);
    document.setProducer(spec.info?.producer ?? spec.producer.producer);
    document.setCreator(spec.info?.creator ?? spec.producer.creator);
    document.setCreationDate(spec.created);
    document.setModificationDate(spec.modified);
    if (spec.producer.xmp) {
      const metadata = document.context.register(document.context.stream(new TextEncoder().encode(xmpPacket(spec)), { Type: 'Metadata', Subtype: 'XML' }));
      document.catalog.set(PDFName.of('Metadata'), metadata);
    }
    await options.finish?.(document);
    return document.save({ useObjectStreams: false, addDefaultPage: false });
  });
}

/** The spec with the text of the step playing `role` replaced. */
export function withText(spec: DocumentSpec, role: string, text: string): DocumentSpec {
  let found = false;
  const pages = spec.pages.map((steps) =>
    steps.map((step) => {
      if (step.kind !== 'text' || step.role !== role) return step;
      found = true;
      return { ...step, text };
    }),
  );
  if (!found) throw new Error(`${spec.id} has no text with role ${role}`);
  return { ...spec, pages };
}

export function textWithRole(spec: DocumentSpec, role: string): TextStep {
  const step = spec.pages.flat().find((item): item is TextStep => item.kind === 'text' && item.role === role);
  if (!step) throw new Error(`${spec.id} has no text with role ${role}`);
  return step;
}

export { money, cents };

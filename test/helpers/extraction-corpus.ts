import { mkdir, writeFile } from 'node:fs/promises';
import { seededRandom } from './seeded-random.ts';
import { join } from 'node:path';
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import type { ExtractDocumentType } from '../../api/checkers/extract/classify.ts';
import { openPdf, renderPagePng } from '../../api/documents/pdf.ts';

/**
 * A deterministic labelled corpus for measuring extraction: text-layer PDFs of the five templates in
 * several layouts (single column, two columns, a header row with values below, tables running over
 * pages), each with the value every field should extract. Layouts follow what the rules ask a document
 * to show (ATO tax invoice requirements, Fair Work reg 3.46 payslip contents; checkers-research §5.3–5.5)
 * and the way such documents are commonly set out: letterhead top left, title and numbers top right,
 * line items in a table, totals bottom right.
 */

export type FieldValue = string | number;

export interface LabelledDocument {
  id: string;
  template: ExtractDocumentType;
  layout: string;
  /** The country hint a caller would send (dates are written its way). */
  country: string;
  pages: number;
  /** Every template field the document shows, with the value extraction should give. */
  truth: Record<string, FieldValue>;
  pdf: Uint8Array;
}


type Random = () => number;

function pick<T>(rand: Random, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)]!;
}

function integer(rand: Random, low: number, high: number): number {
  return low + Math.floor(rand() * (high - low + 1));
}

const businessNames = ['Harbourside Plumbing Pty Ltd', 'Red Gum Electrical Services', 'Kestrel Civil Works Pty Ltd', 'Banksia Cleaning Co', 'Ironbark Joinery Pty Ltd', 'Southern Cross Data Pty Ltd', 'Wattle Street Bakery', 'Coastal Freight Logistics', 'Blue Mountains Landscaping', 'Macquarie Office Supplies', 'Tasman Safety Training', 'Outback Solar Installations'];
const buyerNames = ['Riverina Shire Council', 'Northside Medical Centre Pty Ltd', 'Gumtree Early Learning', 'Department of Regional Roads', 'Hillview Property Group', 'Seaside Physiotherapy', 'Metro Water Services', 'Greenfield Primary School'];
const people = ['Olivia Nguyen', 'James Patel', 'Charlotte Wilson', 'Liam O\'Brien', 'Amelia Singh', 'Noah Fraser', 'Isla Kowalski', 'Jack Thompson', 'Mia Rossi', 'William Chen'];
const banks = ['Commonwealth Savings Bank', 'Harbour Mutual Bank', 'Southern Credit Union', 'Pacific National Bank'];
const superFunds = ['AustralianSuper', 'HESTA', 'Cbus Super', 'UniSuper', 'Hostplus', 'Aware Super'];
const states = ['New South Wales', 'Victoria', 'Queensland', 'Western Australia', 'South Australia', 'Tasmania'];
const items = ['Labour - site attendance', 'Copper pipe 15mm (6 m)', 'Safety audit and report', 'Switchboard upgrade', 'Monthly cleaning service', 'Network cabling (per point)', 'Mulch delivery 3 m3', 'Training course - first aid', 'Freight Sydney to Newcastle', 'Solar panel 440 W'];
const paymentMethods = ['EFTPOS', 'Visa', 'Mastercard', 'Cash', 'Apple Pay'];
const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** An ABN that passes the register's checksum (weights 10,1,3,...,19 on the digits with 1 taken off the first; sum divisible by 89). */
function abn(rand: Random): string {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  for (;;) {
    const digits = [integer(rand, 1, 9), ...Array.from({ length: 10 }, () => integer(rand, 0, 9))];
    const sum = digits.reduce((total, digit, index) => total + (index === 0 ? digit - 1 : digit) * weights[index]!, 0);
    if (sum % 89 === 0) {
      const text = digits.join('');
      return `${text.slice(0, 2)} ${text.slice(2, 5)} ${text.slice(5, 8)} ${text.slice(8)}`;
    }
  }
}

interface SimpleDate {
  year: number;
  month: number;
  day: number;
}

function date(rand: Random): SimpleDate {
  return { year: integer(rand, 2024, 2026), month: integer(rand, 1, 12), day: integer(rand, 1, 28) };
}

function addDays(value: SimpleDate, days: number): SimpleDate {
  const shifted = new Date(Date.UTC(value.year, value.month - 1, value.day + days));
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

function iso(value: SimpleDate): string {
  return `${value.year}-${String(value.month).padStart(2, '0')}-${String(value.day).padStart(2, '0')}`;
}

const two = (n: number) => String(n).padStart(2, '0');
type DateStyle = 'numeric' | 'long' | 'short' | 'iso' | 'us';
/** Dates as Australian documents write them; `us` is month first, for the documents labelled with country US. */
function written(value: SimpleDate, style: DateStyle): string {
  const month = months[value.month - 1]!;
  switch (style) {
    case 'numeric':
      return `${two(value.day)}/${two(value.month)}/${value.year}`;
    case 'long':
      return `${value.day} ${month} ${value.year}`;
    case 'short':
      return `${two(value.day)}-${month.slice(0, 3)}-${value.year}`;
    case 'iso':
      return iso(value);
    case 'us':
      return `${two(value.month)}/${two(value.day)}/${value.year}`;
  }
}

function money(value: number, style: 'dollar' | 'plain' | 'aud' = 'dollar'): string {
  const text = value.toLocaleString('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return style === 'dollar' ? `$${text}` : style === 'aud' ? `AUD ${text}` : text;
}

function cents(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A page-by-page writer with the origin at the top-left, as a person reads a page. */
class Sheet {
  readonly pdf: PDFDocument;
  readonly fonts: { regular: PDFFont; bold: PDFFont };
  readonly size: [number, number];
  page: PDFPage;

  private constructor(pdf: PDFDocument, fonts: { regular: PDFFont; bold: PDFFont }, size: [number, number]) {
    this.pdf = pdf;
    this.fonts = fonts;
    this.size = size;
    this.page = pdf.addPage(size);
  }

  static async create(family: 'helvetica' | 'times' | 'courier', size: [number, number] = [595, 842]): Promise<Sheet> {
    const pdf = await PDFDocument.create();
    const names = { helvetica: [StandardFonts.Helvetica, StandardFonts.HelveticaBold], times: [StandardFonts.TimesRoman, StandardFonts.TimesRomanBold], courier: [StandardFonts.Courier, StandardFonts.CourierBold] }[family];
    const fonts = { regular: await pdf.embedFont(names[0]!), bold: await pdf.embedFont(names[1]!) };
    return new Sheet(pdf, fonts, size);
  }

  text(x: number, y: number, text: string, size = 10, bold = false): void {
    this.page.drawText(text, { x, y: this.size[1] - y - size, size, font: bold ? this.fonts.bold : this.fonts.regular });
  }

  /** Right-aligned at `right`. */
  textRight(right: number, y: number, text: string, size = 10, bold = false): void {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    this.text(right - font.widthOfTextAtSize(text, size), y, text, size, bold);
  }

  /** Wrapped into lines no wider than `width`; returns the y after the paragraph. */
  paragraph(x: number, y: number, width: number, text: string, size = 10): number {
    let line = '';
    for (const word of text.split(' ')) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (this.fonts.regular.widthOfTextAtSize(candidate, size) > width && line !== '') {
        this.text(x, y, line, size);
        y += size * 1.4;
        line = word;
      } else line = candidate;
    }
    if (line !== '') this.text(x, y, line, size);
    return y + size * 1.4;
  }

  newPage(): void {
    this.page = this.pdf.addPage(this.size);
  }

  async save(): Promise<Uint8Array> {
    // Fixed dates keep the bytes identical run after run.
    const fixed = new Date(Date.UTC(2026, 0, 1));
    this.pdf.setCreationDate(fixed);
    this.pdf.setModificationDate(fixed);
    this.pdf.setProducer('extraction corpus generator');
    return this.pdf.save({ useObjectStreams: false });
  }
}

interface Draft {
  layout: string;
  country: string;
  truth: Record<string, FieldValue>;
  sheet: Sheet;
}

interface LineItem {
  description: string;
  quantity: number;
  price: number;
}

function lineItems(rand: Random, count: number): LineItem[] {
  return Array.from({ length: count }, () => ({ description: pick(rand, items), quantity: integer(rand, 1, 12), price: integer(rand, 2000, 90000) / 100 }));
}

async function taxInvoice(rand: Random, layout: 'letterhead' | 'two_column' | 'header_row'): Promise<Draft> {
  const sheet = await Sheet.create(pick(rand, ['helvetica', 'times'] as const));
  const supplier = pick(rand, businessNames);
  const buyer = pick(rand, buyerNames);
  const supplierAbn = abn(rand);
  const buyerAbn = abn(rand);
  const number = `INV-${integer(rand, 1000, 99999)}`;
  const issued = date(rand);
  const due = addDays(issued, pick(rand, [7, 14, 30]));
  const style = pick(rand, ['numeric', 'long', 'short', 'iso'] as const);
  const lines = lineItems(rand, layout === 'header_row' ? integer(rand, 38, 60) : integer(rand, 2, 6));
  const subtotal = cents(lines.reduce((sum, line) => sum + line.quantity * line.price, 0));
  const gst = cents(subtotal / 10);
  const total = cents(subtotal + gst);
  const showBuyerAbn = total >= 1000 || rand() < 0.5;
  const truth: Record<string, FieldValue> = { supplier_name: supplier, supplier_abn: supplierAbn, invoice_number: number, invoice_date: iso(issued), due_date: iso(due), buyer_name: buyer, description: lines[0]!.description, subtotal, gst, total };
  if (showBuyerAbn) truth['buyer_abn'] = buyerAbn;
  let y: number;
  if (layout === 'letterhead') {
    sheet.text(50, 50, supplier, 16, true);
    sheet.text(50, 72, `ABN ${supplierAbn}`);
    sheet.text(50, 86, `${integer(rand, 1, 200)} George Street, Sydney NSW 2000`);
    sheet.textRight(545, 50, 'TAX INVOICE', 18, true);
    sheet.textRight(545, 76, `Invoice number: ${number}`);
    sheet.textRight(545, 90, `Invoice date: ${written(issued, style)}`);
    sheet.textRight(545, 104, `Due date: ${written(due, style)}`);
    sheet.text(50, 130, 'Bill to:', 10, true);
    sheet.text(50, 144, buyer);
    if (showBuyerAbn) sheet.text(50, 158, `Customer ABN: ${buyerAbn}`);
    y = 200;
  } else if (layout === 'two_column') {
    sheet.text(50, 50, 'Tax Invoice', 20, true);
    const left = [`Supplier: ${supplier}`, `ABN: ${supplierAbn}`, `Customer: ${buyer}`, ...(showBuyerAbn ? [`Customer ABN: ${buyerAbn}`] : [])];
    const right = [`Invoice No: ${number}`, `Date of issue: ${written(issued, style)}`, `Payment due: ${written(due, style)}`];
    left.forEach((text, index) => sheet.text(50, 90 + index * 16, text));
    right.forEach((text, index) => sheet.text(330, 90 + index * 16, text));
    y = 170;
  } else {
    sheet.text(50, 50, supplier, 15, true);
    sheet.text(50, 70, `ABN ${supplierAbn}  |  accounts@example.com.au`);
    sheet.text(50, 96, 'TAX INVOICE', 14, true);
    ['Invoice number', 'Issue date', 'Due date', 'Customer'].forEach((heading, index) => sheet.text(50 + index * 125, 124, heading, 9, true));
    [number, written(issued, style), written(due, style), buyer].forEach((value, index) => sheet.text(50 + index * 125, 138, value, 9));
    if (showBuyerAbn) sheet.text(50, 156, `Customer ABN: ${buyerAbn}`, 9);
    y = 190;
  }
  const columns = [50, 305, 390, 470];
  const header = () => {
    ['Description', 'Qty', 'Unit price', 'Amount'].forEach((heading, index) => (index === 0 ? sheet.text(columns[0]!, y, heading, 10, true) : sheet.textRight(columns[index]! + 75, y, heading, 10, true)));
    y += 20;
  };
  header();
  for (const line of lines) {
    if (y > 760) {
      sheet.text(50, 800, 'Continued on next page', 8);
      sheet.newPage();
      y = 60;
      header();
    }
    sheet.text(columns[0]!, y, line.description);
    sheet.textRight(columns[1]! + 75, y, String(line.quantity));
    sheet.textRight(columns[2]! + 75, y, money(line.price, 'plain'));
    sheet.textRight(columns[3]! + 75, y, money(cents(line.quantity * line.price), 'plain'));
    y += 16;
  }
  if (y > 700) {
    sheet.newPage();
    y = 60;
  }
  y += 14;
  const totals: [string, string][] =
    layout === 'two_column'
      ? [['Total ex GST', money(subtotal)], ['GST', money(gst)], ['Total payable', money(total)]]
      : [['Subtotal', money(subtotal)], ['GST (10%)', money(gst)], ['Total (inc GST)', money(total, layout === 'header_row' ? 'aud' : 'dollar')]];
  for (const [label, value] of totals) {
    sheet.text(360, y, label, 10, label.startsWith('Total'));
    sheet.textRight(545, y, value, 10, label.startsWith('Total'));
    y += 16;
  }
  sheet.text(50, y + 20, `Please pay by EFT within terms. Reference ${number}.`, 9);
  return { layout: `tax_invoice.${layout}`, country: 'AU', truth, sheet };
}

async function payslip(rand: Random, layout: 'labelled' | 'two_column_salary' | 'us_dates'): Promise<Draft> {
  const sheet = await Sheet.create(pick(rand, ['helvetica', 'times'] as const));
  const employer = pick(rand, businessNames);
  const employerAbn = abn(rand);
  const employee = pick(rand, people);
  const start = date(rand);
  const end = addDays(start, 13);
  const paid = addDays(end, integer(rand, 1, 3));
  const style: DateStyle = layout === 'us_dates' ? 'us' : pick(rand, ['numeric', 'long', 'short'] as const);
  const fund = pick(rand, superFunds);
  const hours = pick(rand, [76, 60, 38, 45.5, 80]);
  const rate = integer(rand, 2800, 6500) / 100;
  const salary = integer(rand, 70, 160) * 1000;
  const gross = layout === 'two_column_salary' ? cents((salary / 26)) : cents(hours * rate);
  const tax = cents(gross * pick(rand, [0.18, 0.22, 0.26, 0.3]));
  const net = cents(gross - tax);
  const superAmount = cents(gross * 0.12);
  const truth: Record<string, FieldValue> = { employer_name: employer, employer_abn: employerAbn, employee_name: employee, pay_period_start: iso(start), pay_period_end: iso(end), payment_date: iso(paid), gross_pay: gross, net_pay: net, tax_withheld: tax, super_contribution: superAmount, super_fund: fund };
  let y: number;
  if (layout === 'two_column_salary') {
    truth['annual_salary'] = salary;
    sheet.text(50, 50, employer, 16, true);
    sheet.text(50, 70, `ABN ${employerAbn}`);
    sheet.textRight(545, 50, 'PAYSLIP', 18, true);
    const employeeId = `E${integer(rand, 1000, 9999)}`;
    truth['employee_id'] = employeeId;
    const left = [`Employee name: ${employee}`, `Employee ID: ${employeeId}`, `Annual salary: ${money(salary)}`];
    const right = [`Period start: ${written(start, style)}`, `Period end: ${written(end, style)}`, `Pay date: ${written(paid, style)}`];
    left.forEach((text, index) => sheet.text(50, 110 + index * 16, text));
    right.forEach((text, index) => sheet.text(330, 110 + index * 16, text));
    y = 180;
    sheet.text(50, y, 'Earnings', 11, true);
    sheet.text(50, y + 18, 'Salary (fortnight)');
    sheet.textRight(545, y + 18, money(gross));
    y += 50;
  } else {
    truth['ordinary_hours'] = hours;
    truth['hourly_rate'] = rate;
    sheet.text(50, 50, 'Pay Slip', 20, true);
    [`Employer: ${employer}`, `ABN: ${employerAbn}`, `Employee: ${employee}`, `Pay period: ${written(start, style)} to ${written(end, style)}`, `Payment date: ${written(paid, style)}`].forEach((text, index) => sheet.text(50, 86 + index * 16, text));
    y = 186;
    ['Description', 'Hours', 'Rate', 'Amount'].forEach((heading, index) => (index === 0 ? sheet.text(50, y, heading, 10, true) : sheet.textRight(300 + index * 80, y, heading, 10, true)));
    y += 18;
    sheet.text(50, y, 'Ordinary hours');
    sheet.textRight(380, y, hours.toFixed(2));
    sheet.textRight(460, y, money(rate));
    sheet.textRight(540, y, money(gross));
    y += 32;
  }
  const summary: [string, string][] = [['Gross pay', money(gross)], [pick(rand, ['PAYG tax', 'Tax withheld']), money(tax)], ['Net pay', money(net)]];
  for (const [label, value] of summary) {
    sheet.text(50, y, label, 10, label === 'Net pay');
    sheet.textRight(545, y, value, 10, label === 'Net pay');
    y += 16;
  }
  y += 16;
  sheet.text(50, y, 'Superannuation', 11, true);
  sheet.text(50, y + 18, `Super guarantee contribution: ${money(superAmount)}`);
  sheet.text(50, y + 34, `Super fund: ${fund}`);
  sheet.text(50, y + 70, 'Pay slips must be issued within one working day of pay day (Fair Work Regulations 2009 reg 3.46).', 8);
  return { layout: `payslip.${layout}`, country: layout === 'us_dates' ? 'US' : 'AU', truth, sheet };
}

async function bankStatement(rand: Random, layout: 'summary_first' | 'two_column_summary'): Promise<Draft> {
  const sheet = await Sheet.create('helvetica');
  const bank = pick(rand, banks);
  const holder = pick(rand, [...people, ...businessNames]);
  const bsb = `${integer(rand, 0, 9)}${integer(rand, 10, 99)}-${integer(rand, 100, 999)}`;
  const account = String(integer(rand, 10000000, 99999999));
  const start = { ...date(rand), day: 1 };
  const end = addDays(start, 29);
  const style = pick(rand, ['numeric', 'long', 'short'] as const);
  const opening = integer(rand, 50000, 2000000) / 100;
  const count = integer(rand, 30, 70);
  let balance = opening;
  const transactions: [string, string, number][] = [];
  for (let index = 0; index < count; index++) {
    const amount = (rand() < 0.35 ? 1 : -1) * (integer(rand, 500, 150000) / 100);
    balance = cents(balance + amount);
    transactions.push([written(addDays(start, Math.floor((index * 29) / count)), 'short'), pick(rand, ['EFTPOS purchase', 'Direct credit salary', 'BPAY electricity', 'Transfer to savings', 'Card purchase fuel', 'Interest charged', 'ATM withdrawal']), amount]);
  }
  const closing = balance;
  const truth: Record<string, FieldValue> = { bank_name: bank, account_holder: holder, bsb, account_number: account, statement_period_start: iso(start), statement_period_end: iso(end), opening_balance: opening, closing_balance: closing };
  sheet.text(50, 50, bank, 16, true);
  sheet.textRight(545, 50, 'Account Statement', 14, true);
  let y: number;
  if (layout === 'summary_first') {
    [`Account name: ${holder}`, `BSB: ${bsb}`, `Account number: ${account}`, `Statement period: ${written(start, style)} to ${written(end, style)}`].forEach((text, index) => sheet.text(50, 90 + index * 16, text));
    sheet.text(50, 166, `Opening balance: ${money(opening)}`);
    y = 200;
  } else {
    [`Account holder: ${holder}`, `BSB: ${bsb}`, `Account number: ${account}`].forEach((text, index) => sheet.text(50, 90 + index * 16, text));
    [`Statement from: ${written(start, style)}`, `Statement to: ${written(end, style)}`, `Opening balance: ${money(opening)}`].forEach((text, index) => sheet.text(330, 90 + index * 16, text));
    y = 160;
  }
  const header = () => {
    ['Date', 'Description', 'Debit', 'Credit', 'Balance'].forEach((heading, index) => sheet.text([50, 130, 330, 400, 470][index]!, y, heading, 10, true));
    y += 18;
  };
  header();
  let running = opening;
  for (const [when, description, amount] of transactions) {
    if (y > 780) {
      sheet.newPage();
      y = 50;
      header();
    }
    running = cents(running + amount);
    sheet.text(50, y, when, 9);
    sheet.text(130, y, description, 9);
    sheet.textRight(amount < 0 ? 380 : 450, y, money(Math.abs(amount), 'plain'), 9);
    sheet.textRight(540, y, money(running, 'plain'), 9);
    y += 14;
  }
  if (y > 760) {
    sheet.newPage();
    y = 50;
  }
  sheet.text(50, y + 16, `Closing balance: ${money(closing)}`, 10, true);
  return { layout: `bank_statement.${layout}`, country: 'AU', truth, sheet };
}

async function receipt(rand: Random, layout: 'till_roll' | 'a5'): Promise<Draft> {
  const size: [number, number] = layout === 'till_roll' ? [226, 560] : [420, 595];
  const sheet = await Sheet.create(layout === 'till_roll' ? 'courier' : 'helvetica', size);
  const seller = pick(rand, businessNames);
  const sellerAbn = abn(rand);
  const number = String(integer(rand, 100000, 999999));
  const when = date(rand);
  const style = pick(rand, ['numeric', 'long'] as const);
  const bought = lineItems(rand, integer(rand, 2, 5)).map((item) => ({ ...item, price: cents(item.price / 10) }));
  const total = cents(bought.reduce((sum, item) => sum + item.quantity * item.price, 0));
  const gst = cents(total / 11);
  const method = pick(rand, paymentMethods);
  const truth: Record<string, FieldValue> = { seller_name: seller, seller_abn: sellerAbn, receipt_number: number, date: iso(when), total, gst, payment_method: method };
  const right = size[0] - 16;
  const small = layout === 'till_roll' ? 7 : 9;
  sheet.text(16, 30, seller, layout === 'till_roll' ? 8 : 12, true);
  sheet.text(16, 46, `ABN ${sellerAbn}`, small);
  sheet.text(16, 60, 'TAX INVOICE / RECEIPT', small, true);
  sheet.text(16, 78, `Receipt No: ${number}`, small);
  sheet.text(16, 90, `Date: ${written(when, style)} ${two(integer(rand, 8, 20))}:${two(integer(rand, 0, 59))}`, small);
  let y = 114;
  for (const item of bought) {
    sheet.text(16, y, `${item.quantity} x ${item.description}`.slice(0, layout === 'till_roll' ? 28 : 60), small);
    sheet.textRight(right, y, money(cents(item.quantity * item.price), 'plain'), small);
    y += small + 5;
  }
  y += 10;
  sheet.text(16, y, 'TOTAL', small + 1, true);
  sheet.textRight(right, y, money(total), small + 1, true);
  sheet.text(16, y + 16, 'GST included', small);
  sheet.textRight(right, y + 16, money(gst), small);
  sheet.text(16, y + 32, `Paid by: ${method}`, small);
  sheet.text(16, y + 56, 'Thank you for shopping with us', small);
  return { layout: `receipt.${layout}`, country: 'AU', truth, sheet };
}

async function contract(rand: Random, layout: 'recital' | 'schedule'): Promise<Draft> {
  const sheet = await Sheet.create(pick(rand, ['times', 'helvetica'] as const));
  const client = pick(rand, buyerNames);
  const contractor = pick(rand, businessNames);
  const made = date(rand);
  const commence = addDays(made, integer(rand, 7, 30));
  const style = pick(rand, ['long', 'numeric'] as const);
  const termMonths = pick(rand, [6, 12, 24, 36]);
  const value = integer(rand, 20, 900) * 500;
  const law = pick(rand, states);
  const truth: Record<string, FieldValue> = { party_1: client, party_2: contractor, agreement_date: iso(made), commencement_date: iso(commence), term: `${termMonths} months`, contract_value: value, governing_law: law };
  sheet.text(50, 50, pick(rand, ['SERVICES AGREEMENT', 'CONSULTANCY AGREEMENT', 'MAINTENANCE CONTRACT']), 16, true);
  let y = 90;
  if (layout === 'recital') {
    y = sheet.paragraph(50, y, 495, `This Agreement is made on ${written(made, style)} between ${client} (ABN ${abn(rand)}) ("Client") and ${contractor} (ABN ${abn(rand)}) ("Contractor").`, 11);
    y += 10;
    sheet.text(50, y, '1. Term', 11, true);
    y = sheet.paragraph(50, y + 16, 495, `The services commence on the Commencement date below and continue for the Term unless ended earlier under clause 8.`, 10);
    sheet.text(50, y, `Commencement date: ${written(commence, style)}`);
    sheet.text(50, y + 14, `Term: ${termMonths} months`);
    y += 40;
    sheet.text(50, y, '2. Price', 11, true);
    sheet.text(50, y + 16, `Contract price: ${money(value)} (excluding GST), payable monthly in arrears.`);
    y += 50;
  } else {
    sheet.text(50, y, 'Schedule 1 - Contract details', 12, true);
    y += 22;
    const rows: [string, string][] = [['Client', client], ['Contractor', contractor], ['Agreement date', written(made, style)], ['Commencement date', written(commence, style)], ['Term', `${termMonths} months`], ['Contract value', money(value)]];
    for (const [label, text] of rows) {
      sheet.text(50, y, label, 10, true);
      sheet.text(220, y, text);
      y += 18;
    }
    y += 20;
  }
  const clauses = [
    'The Contractor must perform the services with due care and skill and in accordance with all applicable laws, standards and the reasonable directions of the Client.',
    'Either party may terminate this agreement by 30 days written notice if the other party breaches a material term and does not remedy the breach within 14 days.',
    'Each party must keep confidential any information of the other party that it receives under this agreement, except where disclosure is required by law.',
  ];
  for (const clause of clauses) y = sheet.paragraph(50, y, 495, clause, 10) + 6;
  sheet.newPage();
  y = sheet.paragraph(50, 60, 495, `Governing law: This agreement is governed by the laws of ${law}, and the parties submit to the courts of that State.`, 10);
  y += 30;
  sheet.text(50, y, 'Executed as an agreement.', 10, true);
  sheet.text(50, y + 40, `Signed for and on behalf of ${client}`, 9);
  sheet.text(320, y + 40, `Signed for and on behalf of ${contractor}`, 9);
  return { layout: `contract.${layout}`, country: 'AU', truth, sheet };
}

/** The recipe: how many documents of each layout (64 in all). */
const recipe: { template: ExtractDocumentType; count: number; draft: (rand: Random, index: number) => Promise<Draft> }[] = [
  { template: 'tax_invoice', count: 15, draft: (rand, index) => taxInvoice(rand, (['letterhead', 'two_column', 'header_row'] as const)[index % 3]!) },
  { template: 'payslip', count: 13, draft: (rand, index) => payslip(rand, (['labelled', 'two_column_salary', 'labelled', 'us_dates'] as const)[index % 4]!) },
  { template: 'bank_statement', count: 12, draft: (rand, index) => bankStatement(rand, (['summary_first', 'two_column_summary'] as const)[index % 2]!) },
  { template: 'receipt', count: 12, draft: (rand, index) => receipt(rand, (['till_roll', 'a5'] as const)[index % 2]!) },
  { template: 'contract', count: 12, draft: (rand, index) => contract(rand, (['recital', 'schedule'] as const)[index % 2]!) },
];

export async function generateExtractionCorpus(): Promise<LabelledDocument[]> {
  const documents: LabelledDocument[] = [];
  for (const { template, count, draft } of recipe) {
    for (let index = 0; index < count; index++) {
      const rand = seededRandom(1_000 * (documents.length + 1) + index);
      const { layout, country, truth, sheet } = await draft(rand, index);
      const pdf = await sheet.save();
      documents.push({ id: `${template}-${String(index + 1).padStart(2, '0')}`, template, layout, country, pages: sheet.pdf.getPageCount(), truth, pdf });
    }
  }
  return documents;
}

/** A scan of a corpus document: its pages drawn, then degraded the way a scanner or phone camera does. */
export interface ScannedDocument {
  id: string;
  /** The text-layer document it was scanned from (same truth). */
  from: string;
  file: string;
  kind: 'image' | 'pdf';
  mime: string;
  bytes: Uint8Array;
}

/** Scans are drawn at 200 dpi, a common office-scanner setting. */
const scanScale = 200 / 72;

/**
 * One page drawn and degraded: a slight skew (up to ±1°), a little blur and speckle noise, greyscale,
 * stored as JPEG with its resolution recorded, as a flatbed scanner or a phone photo leaves it.
 */
async function degradedPage(png: Uint8Array, rand: Random): Promise<Buffer> {
  const angle = (rand() * 2 - 1) * 1;
  const { data, info } = await sharp(png)
    .greyscale()
    .rotate(angle, { background: '#ffffff' })
    .blur(0.3 + rand() * 0.3)
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let index = 0; index < data.length; index++) data[index] = Math.max(0, Math.min(255, data[index]! + Math.round((rand() - 0.5) * 16)));
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .jpeg({ quality: 70, mozjpeg: true })
    .withMetadata({ density: 72 * scanScale })
    .toBuffer();
}

/**
 * Scans of a seeded draw of about a third of the corpus documents of one or two pages: one-page documents become JPEG
 * images, two-page ones PDFs of page images with no text layer, so OCR is measured on both paths.
 */
export async function scanExtractionCorpus(documents: readonly LabelledDocument[]): Promise<ScannedDocument[]> {
  const scans: ScannedDocument[] = [];
  for (const [index, document] of documents.entries()) {
    if (seededRandom(index + 1)() > 0.34 || document.pages > 2) continue;
    const rand = seededRandom(7_919 * (index + 1));
    const pdf = await openPdf(document.pdf);
    const pages: Buffer[] = [];
    for (let page = 1; page <= document.pages; page++) pages.push(await degradedPage(await renderPagePng(pdf, page, scanScale), rand));
    await pdf.destroy();
    const id = `${document.id}-scan`;
    if (pages.length === 1) {
      scans.push({ id, from: document.id, file: `${id}.jpg`, kind: 'image', mime: 'image/jpeg', bytes: new Uint8Array(pages[0]!) });
      continue;
    }
    const scanned = await PDFDocument.create();
    const [width, height] = [595, 842];
    for (const page of pages) scanned.addPage([width, height]).drawImage(await scanned.embedJpg(page), { x: 0, y: 0, width, height });
    const fixed = new Date(Date.UTC(2026, 0, 1));
    scanned.setCreationDate(fixed);
    scanned.setModificationDate(fixed);
    scans.push({ id, from: document.id, file: `${id}.pdf`, kind: 'pdf', mime: 'application/pdf', bytes: await scanned.save() });
  }
  return scans;
}

export interface CorpusLabels {
  documents: { id: string; file: string; template: ExtractDocumentType; layout: string; country: string; pages: number; truth: Record<string, FieldValue> }[];
  scans: { id: string; file: string; from: string; kind: 'image' | 'pdf'; mime: string }[];
}

/** Writes the corpus, its scans and `labels.json` into `folder`. */
export async function writeExtractionCorpus(folder: string): Promise<void> {
  const documents = await generateExtractionCorpus();
  const scans = await scanExtractionCorpus(documents);
  await mkdir(join(folder, 'text-layer'), { recursive: true });
  await mkdir(join(folder, 'scans'), { recursive: true });
  for (const document of documents) await writeFile(join(folder, 'text-layer', `${document.id}.pdf`), document.pdf);
  for (const scan of scans) await writeFile(join(folder, 'scans', scan.file), scan.bytes);
  const labels: CorpusLabels = {
    documents: documents.map(({ pdf: _pdf, ...document }) => ({ ...document, file: `text-layer/${document.id}.pdf` })),
    scans: scans.map(({ bytes: _bytes, file, ...scan }) => ({ ...scan, file: `scans/${file}` })),
  };
  await writeFile(join(folder, 'labels.json'), `${JSON.stringify(labels, null, 1)}\n`);
}

if (import.meta.main) await writeExtractionCorpus(process.argv[2] ?? 'fixtures/documents/extraction/corpus');

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PageText } from '../../documents/types.ts';
import { einvoiceSignals, findIbans } from './pdf-einvoice.ts';

/** A PEPPOL A-NZ UBL invoice paying into a BSB and account. */
const ubl = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#conformant#urn:fdc:peppol.eu:2017:poacc:billing:international:aunz:3.0</cbc:CustomizationID>
  <cbc:ID>INV-1042</cbc:ID><cbc:IssueDate>2026-03-14</cbc:IssueDate><cbc:DocumentCurrencyCode>AUD</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Harbour Plumbing Pty Ltd</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Shire Council</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingCustomerParty>
  <cac:PaymentMeans><cbc:PaymentMeansCode>30</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>12345678</cbc:ID><cac:FinancialInstitutionBranch><cbc:ID>062000</cbc:ID></cac:FinancialInstitutionBranch></cac:PayeeFinancialAccount></cac:PaymentMeans>
  <cac:TaxTotal><cbc:TaxAmount currencyID="AUD">100.00</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="AUD">1000.00</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="AUD">1000.00</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="AUD">1100.00</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="AUD">1100.00</cbc:PayableAmount></cac:LegalMonetaryTotal>
</Invoice>`;

const files = [{ filename: 'invoice.xml', bytes: new TextEncoder().encode(ubl) }];
const place = () => ({ object: '9 0 R' });

function page(text: string): PageText {
  return { page: 1, width: 595, height: 842, source: 'text_layer', items: [], text, confidence: 1 };
}

const printed = 'Harbour Plumbing Pty Ltd\nTax invoice INV-1042\nDate 14/03/2026\nTo Shire Council\nSubtotal $1,000.00\nGST $100.00\nTotal $1,100.00\nPay to BSB 062-000 Account 1234 5678';

test('a print showing every value the UBL states gives one info note and no disagreement', () => {
  const signals = einvoiceSignals(files, [page(printed)], place);
  assert.equal(signals.length, 1);
  assert.equal(signals[0]!.code, 'einvoice_print_agrees');
  assert.equal(signals[0]!.severity, 'info');
  assert.match(signals[0]!.found, /grand total, net total, tax total, invoice number, issue date, seller name, buyer name, account number, BSB/);
});

test('a print whose total and BSB were changed is high at the page and the XML path, with both values', () => {
  const edited = printed.replaceAll('1,100.00', '1,900.00').replace('062-000', '083-004');
  const signals = einvoiceSignals(files, [page(edited)], place);
  assert.ok(signals.every((signal) => signal.code === 'einvoice_print_mismatch' && signal.severity === 'high'));
  const total = signals.find((signal) => signal.found.includes('grand total'));
  assert.equal(total?.where.field, 'Invoice/LegalMonetaryTotal/TaxInclusiveAmount');
  assert.equal(total?.where.object, '9 0 R');
  const bsb = signals.find((signal) => signal.found.includes('BSB'));
  assert.match(bsb?.found ?? '', /as 062-000; page 1 prints 083-004/);
  assert.equal(bsb?.where.field, 'Invoice/PaymentMeans/PayeeFinancialAccount/FinancialInstitutionBranch/ID');
});

test('a PDF without an e-invoice attachment, or with another XML file, gives nothing', () => {
  assert.deepEqual(einvoiceSignals([], [page(printed)], place), []);
  assert.deepEqual(einvoiceSignals([{ filename: 'notes.xml', bytes: new TextEncoder().encode('<notes><a>1</a></notes>') }], [page(printed)], place), []);
});

test('IBANs are found grouped or not, by their check digits, cut at the country length', () => {
  assert.deepEqual(findIbans('IBAN: DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX'), ['DE89370400440532013000']);
  assert.deepEqual(findIbans('IBAN DE89370400440532013001'), [], 'a wrong check digit is no IBAN');
});

test('a print that changes one of the places it shows the total, and keeps the other, is high at the changed place', () => {
  const twice = `${printed}\nAmount due $1,100.00`.replace('Total $1,100.00', 'Total $1,900.00');
  const signals = einvoiceSignals(files, [page(twice)], place);
  const total = signals.find((signal) => signal.found.includes('grand total'));
  assert.equal(total?.severity, 'high');
  assert.match(total?.found ?? '', /as 1100\.00; page 1 prints 1900\.00 beside "Total" \(line 7\), though page 1 shows 1100\.00/);
  assert.equal(total?.where.field, 'Invoice/LegalMonetaryTotal/TaxInclusiveAmount');
});

test('a label over a figure the XML states for another amount, or a column heading, is no disagreement', () => {
  const table = `${printed}\nDescription\tQty\tTotal\nPipe repair\t1\t$1,000.00\nTotal GST\t$100.00`;
  const signals = einvoiceSignals(files, [page(table)], place);
  assert.deepEqual(signals.map((signal) => signal.code), ['einvoice_print_agrees']);
});

test('a place labelled as the total that prints another amount the XML states (the net total) is high; one whose label says more is not', () => {
  const net = `${printed}\nAmount due $1,100.00`.replace('Total $1,100.00', 'Total $1,000.00');
  const signals = einvoiceSignals(files, [page(net)], place);
  assert.deepEqual(signals.map((signal) => signal.severity), ['high']);
  assert.match(signals[0]!.found, /gives the grand total as 1100\.00; page 1 prints 1000\.00 beside "Total" \(line 7\)/);
  const qualified = `${printed}\nTotal amount of the previous invoice $1,000.00`;
  assert.deepEqual(einvoiceSignals(files, [page(qualified)], place).map((signal) => signal.code), ['einvoice_print_agrees']);
});

test('each changed place is its own signal, at its page', () => {
  const second = { ...page('Summary of INV-1042\nAmount due $1,300.00'), page: 2 };
  const signals = einvoiceSignals(files, [page(printed.replace('Total $1,100.00', 'Total $1,200.00')), second], place).filter((signal) => signal.found.includes('grand total'));
  assert.deepEqual(signals.map((signal) => [signal.severity, signal.where.page]), [['high', 1], ['high', 2]]);
  assert.match(signals[1]!.found, /page 2 prints 1300\.00 beside "Amount due" \(line 2\), and no page shows 1100\.00/);
});

/** The UBL above with a due date and two lines. */
const dated = ubl
  .replace('<cbc:DocumentCurrencyCode>', '<cbc:DueDate>2026-04-13</cbc:DueDate><cbc:DocumentCurrencyCode>')
  .replace('<cac:TaxTotal>', '<cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity>1</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="AUD">640.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Pipe repair kitchen</cbc:Name></cac:Item><cac:Price><cbc:PriceAmount currencyID="AUD">640.00</cbc:PriceAmount></cac:Price></cac:InvoiceLine><cac:InvoiceLine><cbc:ID>2</cbc:ID><cbc:InvoicedQuantity>3</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="AUD">360.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Callout labour hours</cbc:Name></cac:Item><cac:Price><cbc:PriceAmount currencyID="AUD">120.00</cbc:PriceAmount></cac:Price></cac:InvoiceLine><cac:TaxTotal>');
const datedFiles = [{ filename: 'invoice.xml', bytes: new TextEncoder().encode(dated) }];
const datedPrint = `${printed}\nDue date 13/04/2026`;

test('the invoice number, issue date and due date agree when printed, in any date form of the document', () => {
  const signals = einvoiceSignals(datedFiles, [page(datedPrint.replace('Due date 13/04/2026', 'Due date 13 April 2026'))], place);
  assert.deepEqual(signals.map((signal) => signal.code), ['einvoice_print_agrees']);
  assert.match(signals[0]!.found, /invoice number, issue date, due date/);
});

test('a changed printed invoice number is high with both numbers, beside a label naming it or as the page reads it', () => {
  const labelled = einvoiceSignals(datedFiles, [page(datedPrint.replace('Tax invoice INV-1042', 'Invoice number: INV-1048'))], place);
  assert.deepEqual(labelled.map((signal) => signal.severity), ['high']);
  assert.match(labelled[0]!.found, /gives the invoice number as INV-1042; page 1 prints INV-1048 beside "Invoice number" \(line 2\), and no page shows INV-1042/);
  assert.equal(labelled[0]!.where.field, 'Invoice/ID');
  const read = einvoiceSignals(datedFiles, [page(datedPrint.replace('INV-1042', 'INV-1048'))], place);
  assert.match(read.map((signal) => signal.found).join(' | '), /gives the invoice number as INV-1042; page 1 prints INV-1048, and no page shows INV-1042/);
  const referenced = einvoiceSignals(datedFiles, [page(`${datedPrint.replace('Tax invoice INV-1042', 'Invoice number: INV-1048')}\nPayment reference INV-1042`)], place);
  assert.match(referenced.map((signal) => signal.found).join(' | '), /page 1 prints INV-1048 beside "Invoice number" \(line 2\), though page 1 shows INV-1042 where no invoice-number label is/);
  const shorter = einvoiceSignals(datedFiles, [page(datedPrint.replace('Tax invoice INV-1042', 'Invoice number: 1042'))], place);
  assert.deepEqual(shorter.map((signal) => signal.code), ['einvoice_print_agrees'], 'a number written shorter is the same reference');
});

test('a due date changed beside its label is high even where the same date is printed for another meaning', () => {
  const moved = einvoiceSignals(datedFiles, [page(datedPrint.replace('Due date 13/04/2026', 'Due date 20/04/2026\nDelivery date 13/04/2026'))], place);
  assert.deepEqual(moved.map((signal) => signal.severity), ['high']);
  assert.match(moved[0]!.found, /gives the due date as 2026-04-13; page 1 prints 2026-04-20 beside "Due date" \(line 9\), and page 1 shows 2026-04-13 only where no due date label is/);
  assert.equal(moved[0]!.where.field, 'Invoice/DueDate');
});

test('dates are read in the document\'s one order: 04/03/2026 on a day-first page is not the XML\'s 3 April', () => {
  const april = dated.replace('<cbc:IssueDate>2026-03-14</cbc:IssueDate>', '<cbc:IssueDate>2026-04-03</cbc:IssueDate>');
  const files = [{ filename: 'invoice.xml', bytes: new TextEncoder().encode(april) }];
  const signals = einvoiceSignals(files, [page(datedPrint.replace('Date 14/03/2026', 'Date 04/03/2026'))], place);
  assert.match(signals.map((signal) => signal.found).join(' | '), /gives the issue date as 2026-04-03; page 1 prints 2026-03-04/);
  const monthFirst = einvoiceSignals(files, [page(datedPrint.replace('Date 14/03/2026', 'Date 04/03/2026').replace('Due date 13/04/2026', 'Due date 04/13/2026'))], place);
  assert.deepEqual(monthFirst.map((signal) => signal.code), ['einvoice_print_agrees'], 'a month-first page reads 04/03/2026 as 3 April');
});

/** A page laid out as printed: each line's tab-separated cells in columns (the first 200 points wide, the others 80), lines 14 points apart. */
function laidOut(text: string): PageText {
  const items = text.split('\n').flatMap((line, row) =>
    line.split('\t').map((cell, column) => ({ text: cell, x: column === 0 ? 40 : 240 + (column - 1) * 90, y: 60 + row * 14, width: Math.min(column === 0 ? 190 : 80, cell.length * 5), height: 10, font: 'Helvetica' })),
  );
  return { ...page(text), items };
}

/** The dated print with its line table, one row a line. */
const table = (rows: string) => laidOut(`${datedPrint}\nDescription\tQty\tPrice\tAmount\n${rows}\nSubtotal\t$1,000.00`);

test('line rows are paired with XML lines by amount and description when their counts differ; a row the XML lacks is high', () => {
  const both = 'Pipe repair kitchen\t1\t$640.00\t$640.00\nCallout labour hours\t3\t$120.00\t$360.00';
  assert.deepEqual(einvoiceSignals(datedFiles, [(table(both))], place).map((signal) => signal.code), ['einvoice_print_agrees']);
  const extra = einvoiceSignals(datedFiles, [(table(`Pipe repair kitchen\t1\t$640.00\t$640.00\nDisposal of old hot water unit\t1\t$85.00\t$85.00\nCallout labour hours\t3\t$120.00\t$360.00`))], place);
  const row = extra.find((signal) => signal.found.includes('line items'));
  assert.equal(row?.severity, 'high', extra.map((signal) => signal.found).join(' | '));
  assert.match(row!.found, /gives the line items as 2 lines; page 1 prints 85\.00 in the "Amount" column of a row "Disposal of old hot water[^"]*" \(line 12\), a row that no line of the XML has/);
  const changed = einvoiceSignals(datedFiles, [(table(`Callout labour hours\t3\t$120.00\t$390.00\nFreight\t1\t$10.00\t$10.00\nPipe repair kitchen\t1\t$640.00\t$640.00`))], place);
  assert.match(changed.map((signal) => signal.found).join(' | '), /gives the amount of line 2 as 360\.00; page 1 prints 390\.00 in the "Amount" column of line 2/);
});

test('an XML line no row shows is high when every row is another line\'s; a table read otherwise is not evidence', () => {
  const one = einvoiceSignals(datedFiles, [(table('Pipe repair kitchen\t1\t$640.00\t$640.00'))], place);
  assert.match(one.map((signal) => signal.found).join(' | '), /gives the line 2 \("Callout labour hours"\) as 360\.00; page 1 prints no row with its amount or description in the line table/);
  const unclear = einvoiceSignals(datedFiles, [(table('Sundries\t1\t$500.00\t$500.00'))], place);
  assert.ok(!unclear.some((signal) => /line items|line \d \(/.test(signal.found)), unclear.map((signal) => signal.found).join(' | '));
});

test("an XML whose lines do not add up to the lines' sum it states (BR-CO-10) is a medium, beside whatever the print shows", () => {
  // The second line taken out of the XML, its stated sum of 1000.00 kept: 640.00 is 360.00 short.
  const oneLine = dated.replace(/<cac:InvoiceLine><cbc:ID>2<\/cbc:ID>[\s\S]*?<\/cac:InvoiceLine>/, '');
  const signals = einvoiceSignals([{ filename: 'invoice.xml', bytes: new TextEncoder().encode(oneLine) }], [page(datedPrint)], place);
  const inconsistent = signals.filter((signal) => signal.code === 'einvoice_lines_do_not_add_up');
  assert.equal(inconsistent.length, 1);
  assert.equal(inconsistent[0]!.severity, 'medium');
  assert.match(inconsistent[0]!.found, /states its lines' sum as 1000\.00, but its 1 line sum to 640\.00; EN 16931 rule BR-CO-10/);
  assert.equal(inconsistent[0]!.where.object, place().object);
  const whole = einvoiceSignals(datedFiles, [page(datedPrint)], place);
  assert.ok(!whole.some((signal) => signal.code === 'einvoice_lines_do_not_add_up'), 'lines that add up raise nothing');
});

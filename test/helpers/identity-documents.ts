import { createHash } from 'node:crypto';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import sharp from 'sharp';
import type { DocumentClassification, DocumentType } from '../../api/checkers/document-types.ts';
import type { IntakeDocument } from '../../api/documents/types.ts';

/**
 * Generated stand-ins for identity, income and tenancy documents: each type's usual headings and fields in a
 * plausible layout, for invented people at invented addresses (no real person's data). Cards are drawn at
 * card proportions with a drawn portrait; letters and statements on A4. Rendered as text-layer PDFs (pdf-lib,
 * the card scanned onto an A4 page with the portrait as an embedded image) and as pictures (sharp, the way a
 * phone photo of a card arrives), so classification is measured on both the text layer and OCR.
 */

export interface Person {
  given: string;
  family: string;
  dob: string;
  street: string;
  suburb: string;
  state: string;
  postcode: string;
}

export const people: Person[] = [
  { given: 'JORDAN ALEX', family: 'SAMPLEWOOD', dob: '14/03/1988', street: '12 Wattlebird Street', suburb: 'EXAMPLE HEIGHTS', state: 'NSW', postcode: '2999' },
  { given: 'PRIYA MAE', family: 'FICTONE', dob: '02/11/1975', street: '7 Quokka Crescent', suburb: 'MOCKLANDS', state: 'VIC', postcode: '3999' },
  { given: 'LIAM TEO', family: 'PLACEHOLME', dob: '29/07/1996', street: '210 Banksia Road', suburb: 'TESTVALE', state: 'QLD', postcode: '4999' },
];

/** One row of a layout: cells spread across the width; a `size` above 12 marks a heading. */
interface Row {
  cells: string[];
  size?: number;
}

interface Layout {
  /** Card proportions with a portrait, or an A4 page. */
  shape: 'card' | 'page';
  portrait: boolean;
  rows: Row[];
}

const heading = (text: string, size = 18): Row => ({ cells: [text], size });
const row = (...cells: string[]): Row => ({ cells });
const name = (person: Person) => `${person.given} ${person.family}`;
const address = (person: Person) => `${person.street}, ${person.suburb} ${person.state} ${person.postcode}`;
const card = (rows: Row[], portrait = true): Layout => ({ shape: 'card', portrait, rows });
const page = (rows: Row[]): Layout => ({ shape: 'page', portrait: false, rows });
const mrzName = (person: Person) => `${person.family}<<${person.given.replace(/ /g, '<')}`.padEnd(39, '<');

type Variant = (person: Person) => Layout;

/** Two or three layouts per type, as different issuers and states print them. */
export const layouts: Record<DocumentType, Variant[]> = {
  australian_passport: [
    (p) => card([heading('AUSTRALIA'), heading('PASSPORT', 14), row('Type P', 'Code AUS', 'Passport No. PA1234567'), row('Surname', p.family), row('Given names', p.given), row('Nationality AUSTRALIAN'), row('Date of birth', p.dob), row('Date of issue', '15/06/2022'), row('Date of expiry', '15/06/2032'), row(`P<AUS${mrzName(p)}`), row('PA1234567<5AUS8803149M3206155<<<<<<<<<<<<<<02')]),
    (p) => card([heading('PASSPORT  AUSTRALIA'), row('Passport No', 'PB7654321'), row('Name', name(p)), row('Nationality', 'AUSTRALIAN'), row('Date of birth', p.dob), row('Place of birth', 'SYDNEY'), row('Date of expiry', '03 MAR 2030'), row('Holder signature')]),
  ],
  foreign_passport: [
    (p) => card([heading('UNITED KINGDOM OF GREAT BRITAIN AND NORTHERN IRELAND', 13), heading('PASSPORT', 14), row('Type P', 'Code GBR', 'Passport No 123456789'), row('Surname', p.family), row('Given names', p.given), row('Nationality', 'BRITISH CITIZEN'), row('Date of expiry', '11 JAN 2031'), row(`P<GBR${mrzName(p)}`)]),
    (p) => card([heading('REPUBLIC OF INDIA'), heading('PASSPORT', 14), row('Passport No.', 'Z1234567'), row('Surname', p.family), row('Given Name(s)', p.given), row('Nationality', 'INDIAN'), row('Date of Expiry', '20/08/2033'), row(`P<IND${mrzName(p)}`)]),
    (p) => card([heading('NEW ZEALAND'), heading('PASSPORT', 14), row('Passport No', 'LA123456'), row('Name', name(p)), row('Nationality', 'NEW ZEALAND CITIZEN'), row('Date of expiry', '05/05/2029'), row(`P<NZL${mrzName(p)}`)]),
  ],
  national_id_card: [
    (p) => card([heading('REPUBLIQUE FRANCAISE'), heading("CARTE NATIONALE D'IDENTITE", 14), row('Nom', p.family), row('Prenom(s)', p.given), row('Ne(e) le', p.dob), row("Valable jusqu'au", '12/05/2031')]),
    (p) => card([heading('BUNDESREPUBLIK DEUTSCHLAND'), heading('PERSONALAUSWEIS  IDENTITY CARD', 14), row('Name', p.family), row('Vornamen', p.given), row('Geburtstag', p.dob), row('Gultig bis / Date of expiry', '31/10/2030')]),
  ],
  residence_permit: [
    (p) => card([heading('UNITED KINGDOM'), heading('RESIDENCE PERMIT', 14), row('Surname', p.family), row('Given names', p.given), row('Valid until', '08/08/2030'), row('LEAVE TO REMAIN')]),
    (p) => card([heading('UNITED STATES OF AMERICA'), heading('PERMANENT RESIDENT CARD', 14), row('Surname', p.family), row('Given name', p.given), row('Card expires', '01/01/2032')]),
  ],
  visa: [
    (p) => card([heading('UNITED STATES OF AMERICA'), heading('VISA', 14), row('Surname', p.family), row('Given name', p.given), row('Expiration date', '28/07/2034'), row(`V<USA${mrzName(p)}`)]),
    (p) => card([heading('ETATS SCHENGEN'), heading('VISA', 14), row('Nom, prenom', name(p)), row("Valable jusqu'au", '14/01/2031')]),
  ],
  drivers_licence: [
    (p) => card([heading('NEW SOUTH WALES'), heading('DRIVER LICENCE', 16), row(name(p)), row(p.street), row(`${p.suburb} ${p.state} ${p.postcode}`), row('Licence No.', '12345678', 'Class C'), row('Date of Birth', p.dob), row('Expiry', '14/03/2030'), row('Transport for NSW')]),
    (p) => card([heading('Driver Licence Victoria Australia'), row(name(p)), row(address(p)), row('Licence No', '087654321'), row('Licence Type', 'CAR', 'Conditions', 'NIL'), row('Date of Birth', p.dob), row('Licence Expiry', '29/07/2031'), row('VicRoads')]),
    (p) => card([heading('Queensland Government'), heading('LEARNER LICENCE', 15), row(name(p)), row('Licence Number', '123456789'), row('Class', 'C'), row('Date of Birth', p.dob), row('Expiry', '02/11/2028')]),
  ],
  proof_of_age_card: [
    (p) => card([heading('NSW PHOTO CARD'), row(name(p)), row('Date of birth', p.dob), row('Card number', '1234567890'), row('Expiry', '14/03/2031'), row('Service NSW')]),
    (p) => card([heading('Victoria Proof of Age Card'), row(name(p)), row('Date of birth', p.dob), row('Card No', 'POA123456'), row('Expires', '12/2029')]),
    (p) => card([heading('Queensland Government'), heading('Adult Proof of Age Card', 15), row(name(p)), row('DOB', p.dob), row('Expiry', '30/06/2030')]),
  ],
  medicare_card: [
    (p) => card([heading('medicare'), row('2123 45670 1'), row(`1  ${name(p)}`), row('VALID TO 08/2030')], false),
    (p) => card([heading('MEDICARE', 20), row('Card number', '5987 65432 1'), row(`2  ${p.given.split(' ')[0]} ${p.family}`), row('Valid to', '11/2029')], false),
  ],
  birth_certificate: [
    (p) => page([heading('NEW SOUTH WALES'), heading('BIRTH CERTIFICATE'), row('Registry of Births, Deaths & Marriages'), row('Registration number', '1988/012345'), row('Child', name(p)), row('Date of birth', p.dob), row('Place of birth', 'Example Hospital, Sydney'), row('Mother', 'ALEXIS SAMPLEWOOD'), row('Father', 'MORGAN SAMPLEWOOD'), row('Date of issue', '04/04/2019'), row('Registrar')]),
    (p) => page([heading('Births Deaths and Marriages Victoria'), heading('Birth Certificate', 16), row('Registration No.', '23456/1975'), row('Name', name(p)), row('Date of Birth', p.dob), row('Parent 1', 'RUTH FICTONE'), row('Parent 2', 'ARUN FICTONE'), row('Issued', '18 September 2015')]),
  ],
  birth_extract: [
    (p) => page([heading('BIRTH CERTIFICATE EXTRACT'), row('Registry of Births, Deaths and Marriages Queensland'), row('Name', name(p)), row('Date of birth', p.dob), row('Place of birth', 'Brisbane'), row('Registration number', '1996/98765')]),
    (p) => card([heading('NSW BIRTH CARD'), row('Births Deaths & Marriages NSW'), row(name(p)), row('Born', p.dob), row('Registration', '1988/012345')], false),
  ],
  citizenship_certificate: [
    (p) => page([heading('Australian Government'), row('Department of Home Affairs'), heading('AUSTRALIAN CITIZENSHIP CERTIFICATE'), row('This is to certify that'), row(name(p)), row('born on', p.dob), row('became an Australian citizen on 26 January 2015'), row('under the Australian Citizenship Act 2007'), row('Certificate number', 'ACC123456')]),
    (p) => page([heading('Certificate of Australian Citizenship'), row('Name', name(p)), row('Date of birth', p.dob), row('Date of effect', '17/09/2012'), row('Issued under the Australian Citizenship Act 2007')]),
  ],
  immicard: [
    (p) => card([heading('IMMICARD'), row('Australian Government'), row('Department of Home Affairs'), row(name(p)), row('Date of birth', p.dob), row('Card number', 'IMC123456'), row('Expiry', '01/01/2030')]),
    (p) => card([heading('Australian Government ImmiCard'), row(name(p)), row('Visa grant number', '0123456789012'), row('DOB', p.dob), row('Expiry', '15/08/2029')]),
  ],
  centrelink_card: [
    (p) => card([heading('Australian Government'), row('Centrelink'), heading('PENSIONER CONCESSION CARD', 14), row(name(p)), row(p.street), row(`${p.suburb} ${p.state} ${p.postcode}`), row('CRN 123 456 789A'), row('Valid to 31/12/2027')], false),
    (p) => card([heading('Centrelink'), heading('HEALTH CARE CARD', 14), row(name(p)), row(address(p)), row('CRN', '987 654 321B'), row('Valid to', '30/06/2027')], false),
  ],
  centrelink_statement: [
    (p) => page([heading('Services Australia'), row('Centrelink'), heading('Income Statement'), row('Customer Reference Number', '123 456 789A'), row(name(p)), row(p.street), row(`${p.suburb} ${p.state} ${p.postcode}`), row('Date of issue', '02/11/2026'), row('Payment type', 'Age Pension'), row('Fortnightly rate', '$1,144.40')]),
    (p) => page([heading('Centrelink'), heading('Confirmation of Payments', 16), row('Name', name(p)), row('CRN', '987 654 321B'), row('Date', '10/11/2026'), row('JobSeeker Payment', 'Fortnightly', '$781.10')]),
  ],
  bank_card: [
    (p) => card([heading('SOUTHERN CROSSWAY BANK'), row('DEBIT'), row('4564 1234 5678 9012'), row('VALID THRU 09/29'), row(name(p)), row('VISA')], false),
    (p) => card([heading('HARBOURLINE CREDIT UNION'), row('5217 2900 1234 5678'), row('MEMBER SINCE 2014', 'VALID THRU 04/28'), row(name(p)), row('Mastercard')], false),
  ],
  bank_statement: [
    (p) => page([heading('Harbourline Bank'), heading('Statement', 16), row(name(p)), row(p.street), row(`${p.suburb} ${p.state} ${p.postcode}`), row('BSB 062-999', 'Account number 1234 5678'), row('Statement period 01/09/2026 to 30/09/2026'), row('Opening balance', '$2,340.15'), row('Date', 'Transaction', 'Debit', 'Credit', 'Balance'), row('03/09/2026', 'SALARY EXAMPLE PTY LTD', '', '3,150.00', '5,490.15'), row('05/09/2026', 'CORNER GROCER', '84.20', '', '5,405.95'), row('12/09/2026', 'RENT PAYMENT', '1,900.00', '', '3,505.95'), row('Closing balance', '$3,505.95')]),
    (p) => page([heading('Southern Crossway Bank'), row('Everyday Account Statement'), row('Account holder', name(p)), row('BSB', '733-999', 'Account No', '98765432'), row('Statement period', '01 Oct 2026 - 31 Oct 2026'), row('Opening Balance', '$812.40'), row('01 Oct 2026', 'Transfer from savings', '', '500.00', '1,312.40'), row('14 Oct 2026', 'Pharmacy', '22.95', '', '1,289.45'), row('Closing Balance', '$1,289.45')]),
  ],
  credit_card_statement: [
    (p) => page([heading('Harbourline Bank Visa'), heading('Credit Card Statement', 16), row(name(p)), row(address(p)), row('Statement period 01/10/2026 to 31/10/2026'), row('Credit limit', '$8,000.00'), row('Closing balance', '$1,234.56'), row('Minimum payment due', '$37.04'), row('Payment due date', '25/11/2026'), row('04/10/2026', 'AIRLINE TICKETS', '612.00'), row('18/10/2026', 'RESTAURANT', '88.40')]),
    (p) => page([heading('Southern Crossway Mastercard'), row('Statement'), row('Cardholder', name(p)), row('Available credit', '$3,210.00', 'Credit limit', '$5,000.00'), row('Minimum repayment', '$45.00'), row('Payment due', '21 Nov 2026')]),
  ],
  loan_statement: [
    (p) => page([heading('Harbourline Bank'), heading('Home Loan Statement', 16), row(name(p)), row(address(p)), row('Loan account number', '5566 7788'), row('Statement period 01/07/2026 to 31/10/2026'), row('Interest rate', '6.14% p.a.'), row('Monthly repayment', '$3,412.00'), row('Loan balance', '$512,340.11')]),
    (p) => page([heading('Personal Loan Statement'), row('Southern Crossway Bank'), row('Borrower', name(p)), row('Loan amount', '$25,000.00'), row('Repayment', '$512.00 monthly'), row('Interest rate', '9.5%')]),
  ],
  utility_bill: [
    (p) => page([heading('Brightwave Energy'), row('Tax invoice', 'ABN 11 222 333 444'), heading('Your electricity bill', 15), row(name(p)), row(p.street), row(`${p.suburb} ${p.state} ${p.postcode}`), row('Supply address', address(p)), row('NMI 4102 1234 567'), row('Bill date', '05/11/2026'), row('Usage 512 kWh', 'Peak tariff'), row('Amount due', '$312.45'), row('Due date', '26/11/2026')]),
    (p) => page([heading('Riverbend Water'), row('Water and sewerage account'), row(name(p)), row(address(p)), row('Meter reading', 'Usage 48 kL'), row('Issue date', '20/10/2026'), row('Total due', '$188.20', 'Pay by 10/11/2026')]),
    (p) => page([heading('Telconet Mobile'), row('Your bill'), row(name(p)), row(address(p)), row('Service number', '0400 000 000'), row('Data usage', '18.2 GB'), row('Bill date', '01/11/2026'), row('Amount due', '$65.00')]),
  ],
  rates_notice: [
    (p) => page([heading('Greenvale City Council'), heading('Rates and Charges Notice 2026/27', 15), row('Assessment number', '10234567'), row(name(p)), row(p.street), row(`${p.suburb} ${p.state} ${p.postcode}`), row('Property address', address(p)), row('Capital improved value', '$820,000'), row('Date of issue', '01/08/2026'), row('Total rates', '$2,140.00', 'First instalment due 30/09/2026')]),
    (p) => page([heading('Shire of Examplebrook'), row('Rate Notice'), row('Owner', name(p)), row('Property location', address(p)), row('Land value', '$310,000'), row('Issued', '15/07/2026')]),
  ],
  council_document: [
    (p) => page([heading('Greenvale City Council'), heading('Animal Registration Renewal Notice', 14), row(name(p)), row(address(p)), row('Animal', 'Dog - Kelpie'), row('Registration number', 'A12345'), row('Date of notice', '02/10/2026')]),
    (p) => page([heading('Examplebrook Shire Council'), row('Waste Collection Service Notice'), row(name(p)), row(address(p)), row('Date', '20/10/2026')]),
  ],
  payslip: [
    (p) => page([heading('Example Logistics Pty Ltd', 15), row('ABN 51 824 753 556'), heading('Payslip', 16), row('Employee', name(p)), row('Pay period', '14/10/2026 to 27/10/2026'), row('Pay date', '29/10/2026'), row('Ordinary hours', '76.00', 'Hourly rate', '$41.45'), row('Gross pay', '$3,150.20'), row('PAYG tax withheld', '$702.00'), row('Net pay', '$2,448.20'), row('Superannuation', '$362.27', 'Fund', 'Example Super'), row('YTD gross', '$22,051.40')]),
    (p) => page([heading('PAY ADVICE'), row('Employer', 'Sample Health Services'), row('Employee name', name(p)), row('Period ending', '31/10/2026'), row('Gross earnings', '$4,210.00'), row('Tax', '$1,020.00'), row('Net pay', '$3,190.00'), row('Year to date', '$16,840.00')]),
  ],
  tax_notice_of_assessment: [
    (p) => page([heading('Australian Taxation Office'), heading('Notice of assessment', 16), row('Year ended 30 June 2026'), row(name(p)), row(p.street), row(`${p.suburb} ${p.state} ${p.postcode}`), row('Tax file number', '123 456 782'), row('Date of issue', '14/08/2026'), row('Taxable income', '$81,900'), row('Tax on taxable income', '$15,988.00'), row('Medicare levy', '$1,638.00'), row('Your refund', '$612.40')]),
    (p) => page([heading('NOTICE OF ASSESSMENT'), row('ATO'), row('Name', name(p)), row('TFN', '987 654 321'), row('Issued', '02/09/2026'), row('Amount payable', '$1,204.00')]),
  ],
  employment_letter: [
    (p) => page([heading('Example Logistics Pty Ltd', 15), row('12 October 2026'), row('To whom it may concern'), heading('Confirmation of employment', 14), row(`This letter confirms that ${name(p)} has been employed by Example Logistics`), row('since 4 February 2019 as a Senior Analyst on a full-time permanent basis.'), row('Annual salary: $96,000 plus superannuation.'), row('Yours faithfully'), row('Human Resources')]),
    (p) => page([heading('Sample Health Services'), row('Letter of employment'), row(`${name(p)} is employed with us as a Registered Nurse, part-time, 0.8 FTE.`), row('Position commenced 1 March 2021.'), row('People and Culture')]),
  ],
  rental_ledger: [
    (p) => page([heading('Harbour Realty'), heading('Tenant Ledger', 16), row('Tenant', name(p)), row('Property', address(p)), row('Rent', '$650.00 per week'), row('Date', 'Description', 'Amount', 'Paid to'), row('01/09/2026', 'Rent', '1,300.00', '14/09/2026'), row('15/09/2026', 'Rent', '1,300.00', '28/09/2026')]),
    (p) => page([heading('Rental Ledger'), row('Agent', 'Examplebrook Property Co'), row('Tenant', name(p)), row('Rent paid to date', '30/10/2026'), row('Arrears', '$0.00')]),
  ],
  tenancy_reference: [
    (p) => page([heading('Harbour Realty'), heading('Rental Reference', 16), row(`Tenant: ${name(p)}`), row(`Property: ${address(p)}`), row('Tenancy: March 2021 to October 2026'), row('Rent was always paid on time and the condition of the property was excellent.'), row('We would happily rent to this tenant again.'), row('Property Manager')]),
    (p) => page([heading('Tenancy Reference'), row(`Reference for ${name(p)}`), row('Rented our unit for three years.'), row('I recommend them without reservation.'), row('Landlord')]),
  ],
  lease_agreement: [
    (p) => page([heading('Residential Tenancy Agreement'), row('Landlord', 'EXAMPLE HOLDINGS PTY LTD'), row('Tenant', name(p)), row('Premises', address(p)), row('Term of agreement', '12 months', 'Fixed term'), row('Rent', '$650.00 per week'), row('Bond', '$2,600.00'), row('Signature of tenant')]),
    (p) => page([heading('Residential Rental Agreement'), row('Rental provider', 'Sample Property Trust'), row('Renter', name(p)), row('Address', address(p)), row('Start date', '01/03/2026', 'Periodic')]),
  ],
  tax_invoice: [
    () => page([heading('Example Plumbing Pty Ltd'), row('ABN 51 824 753 556'), heading('TAX INVOICE', 16), row('Invoice number', 'INV-1042', 'Invoice date', '03/11/2026'), row('Replace hot water valve', '$220.00'), row('GST', '$22.00'), row('Total including GST', '$242.00')]),
    () => page([heading('Tax Invoice'), row('Sample Office Supplies'), row('ABN 12 345 678 901'), row('Invoice No', '5531'), row('Paper A4 x 10', '$65.00'), row('Total price includes GST', '$65.00')]),
  ],
  marriage_certificate: [
    (p) => page([heading('MARRIAGE CERTIFICATE'), row('Registry of Births, Deaths and Marriages'), row('Party 1', name(p)), row('Party 2', 'CASEY EXAMPLEFORD'), row('Date of marriage', '12/12/2015'), row('Place of marriage', 'Example Gardens'), row('Celebrant', 'R. SAMPLE')]),
    (p) => page([heading('Certificate of Marriage'), row('Births Deaths and Marriages Victoria'), row('Parties', `${name(p)} and DANA MOCKWELL`), row('Date of marriage', '03/03/2010')]),
  ],
  change_of_name_certificate: [
    (p) => page([heading('CHANGE OF NAME CERTIFICATE'), row('Registry of Births, Deaths & Marriages'), row('Former name', 'JORDAN ALEX OLDNAME'), row('New name', name(p)), row('Date registered', '01/02/2020')]),
    (p) => page([heading('Change of Name'), row('Births, Deaths and Marriages Queensland'), row('Previous name', 'LIAM TEO FORMERLY'), row('New name', name(p))]),
  ],
  student_id_card: [
    (p) => card([heading('EASTBRIDGE UNIVERSITY'), row('STUDENT'), row(name(p)), row('Student ID', '41234567'), row('Expiry', '31/12/2027')]),
    (p) => card([heading('Northgate Institute of Technology'), row('Student card'), row(name(p)), row('Student Number', 'S1234567'), row('Valid to', '12/2027')]),
  ],
  government_employee_id: [
    (p) => card([heading('Department of Example Services'), row('Australian Government'), row('STAFF ID CARD'), row(name(p)), row('Employee number', '0012345'), row('Expiry', '30/06/2028')]),
    (p) => card([heading('Queensland Government'), row('Authorised Officer'), row(name(p)), row('Staff No', 'QG12345')]),
  ],
  dva_card: [
    (p) => card([heading('Australian Government'), row("Department of Veterans' Affairs"), row('GOLD CARD'), row(name(p)), row('File No', 'NX123456')], false),
    (p) => card([heading('DVA'), row('Veteran Card'), row(name(p)), row('File number', 'QX654321')], false),
  ],
  working_with_children_card: [
    (p) => card([heading('Working with Children Check'), row('Service NSW'), row(name(p)), row('Check number', 'WWC1234567E'), row('Expiry', '14/03/2030')]),
    (p) => card([heading('Blue Card'), row('Queensland Government'), row(name(p)), row('Card number', '123456/1'), row('Expiry', '02/11/2028')]),
  ],
};

export interface StandIn {
  label: DocumentType;
  document: IntakeDocument;
}

/** Every layout of every type as a text-layer PDF, cycling through the people. */
export async function pdfStandIns(): Promise<StandIn[]> {
  const portrait = await portraitPng();
  const standIns: StandIn[] = [];
  for (const [type, variants] of Object.entries(layouts) as [DocumentType, Variant[]][]) {
    for (const [index, variant] of variants.entries()) {
      const layout = variant(people[index % people.length]!);
      standIns.push({ label: type, document: intake(await layoutPdf(layout, portrait), 'pdf', 'application/pdf', `${type}-${index + 1}.pdf`) });
    }
  }
  return standIns;
}

/** The first layout of each of `types` as a PNG picture of the document (OCR reads these). */
export async function imageStandIns(types: readonly DocumentType[]): Promise<StandIn[]> {
  const standIns: StandIn[] = [];
  for (const type of types) {
    const layout = layouts[type][0]!(people[1]!);
    standIns.push({ label: type, document: intake(await layoutPng(layout), 'image', 'image/png', `${type}.png`) });
  }
  return standIns;
}

/** A picture of the first layout of `type` placed on an A4 PDF page with no text layer: a scanned copy. */
export async function scannedPdfStandIn(type: DocumentType): Promise<StandIn> {
  const picture = await layoutPng(layouts[type][0]!(people[2]!));
  const pdf = await PDFDocument.create();
  pdf.setCreationDate(GENERATED_ON);
  pdf.setModificationDate(GENERATED_ON);
  const pdfPage = pdf.addPage([A4.width, A4.height]);
  const image = await pdf.embedPng(picture);
  const width = A4.width - 120;
  const height = (width * image.height) / image.width;
  pdfPage.drawImage(image, { x: 60, y: A4.height - 60 - height, width, height });
  return { label: type, document: intake(await pdf.save(), 'pdf', 'application/pdf', `${type}-scan.pdf`) };
}

/** A stand-in of one type and layout as a PDF, for the scheme tests. */
export async function standInPdf(type: DocumentType, variant = 0, person: Person = people[0]!): Promise<IntakeDocument> {
  return intake(await layoutPdf(layouts[type][variant]!(person), await portraitPng()), 'pdf', 'application/pdf', `${type}.pdf`);
}

export function intake(bytes: Uint8Array, kind: IntakeDocument['kind'], mime: string, filename: string): IntakeDocument {
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), kind, mime, filename };
}

const A4 = { width: 595.28, height: 841.89 };
const GENERATED_ON = new Date('2026-11-01T00:00:00Z');
const CARD = { width: 400, height: 252 };

async function layoutPdf(layout: Layout, portrait: Uint8Array): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setProducer('identity stand-in generator');
  // Fixed dates keep the bytes the same run to run, so the committed sample files can be compared with the generator.
  pdf.setCreationDate(GENERATED_ON);
  pdf.setModificationDate(GENERATED_ON);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const pdfPage = pdf.addPage([A4.width, A4.height]);
  const isCard = layout.shape === 'card';
  // A card is "scanned" onto the top of an A4 page, the way a copy of a card is usually supplied.
  const left = 60;
  const top = A4.height - 60;
  const width = isCard ? CARD.width : A4.width - 120;
  if (isCard) pdfPage.drawRectangle({ x: left, y: top - CARD.height, width: CARD.width, height: CARD.height, borderColor: rgb(0.3, 0.3, 0.5), borderWidth: 1, color: rgb(0.93, 0.95, 0.98) });
  let textLeft = left + 12;
  if (layout.portrait) {
    const image = await pdf.embedPng(portrait);
    pdfPage.drawImage(image, { x: left + 12, y: top - 30 - 110, width: 85, height: 110 });
    textLeft = left + 110;
  }
  let y = top - 24;
  const rowGap = isCard ? 4 : 10;
  for (const line of layout.rows) {
    const size = line.size ?? (isCard ? 9 : 11);
    const font = line.size ? bold : regular;
    const columnWidth = (width - (textLeft - left) - 12) / Math.max(1, line.cells.length);
    line.cells.forEach((cell, column) => {
      if (cell) pdfPage.drawText(cell, { x: textLeft + column * columnWidth, y, size, font, color: rgb(0.05, 0.05, 0.1) });
    });
    y -= size + rowGap;
  }
  return pdf.save();
}

async function layoutPng(layout: Layout): Promise<Uint8Array> {
  const isCard = layout.shape === 'card';
  const width = isCard ? 1200 : 1240;
  const height = isCard ? 760 : 1754;
  const parts: string[] = [`<rect width="${width}" height="${height}" fill="${isCard ? '#eef2f8' : '#ffffff'}"/>`];
  let textLeft = 40;
  if (layout.portrait) {
    parts.push('<rect x="40" y="110" width="230" height="300" fill="#8a8f99"/><circle cx="155" cy="220" r="62" fill="#d9c2a8"/><ellipse cx="155" cy="380" rx="100" ry="70" fill="#3d4a5c"/>');
    textLeft = 300;
  }
  let y = 70;
  const base = isCard ? 25 : 24;
  for (const line of layout.rows) {
    const size = line.size ? Math.round(base * (line.size / 11)) : base;
    const columnWidth = (width - textLeft - 30) / Math.max(1, line.cells.length);
    line.cells.forEach((cell, column) => {
      if (cell) parts.push(`<text x="${textLeft + column * columnWidth}" y="${y}" font-family="DejaVu Sans" font-size="${size}"${line.size ? ' font-weight="bold"' : ''} fill="#101018">${escapeXml(cell)}</text>`);
    });
    y += size + (isCard ? 12 : 22);
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** A drawn head-and-shoulders portrait (no real face): what a card photo looks like to the page-image measure. */
async function portraitPng(): Promise<Uint8Array> {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="170" height="220"><rect width="170" height="220" fill="#8a8f99"/><circle cx="85" cy="80" r="45" fill="#d9c2a8"/><ellipse cx="85" cy="200" rx="75" ry="55" fill="#3d4a5c"/></svg>';
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Accuracy per type over the labelled stand-ins; printed so the figure is on record with every run. */
export function accuracyByType(results: { standIn: StandIn; classification: DocumentClassification }[]): Map<string, { total: number; correct: number }> {
  const byType = new Map<string, { total: number; correct: number }>();
  for (const { standIn, classification } of results) {
    const tally = byType.get(standIn.label) ?? { total: 0, correct: 0 };
    tally.total++;
    if (classification.type === standIn.label) tally.correct++;
    byType.set(standIn.label, tally);
  }
  return byType;
}

/** The figures measured/document-types-*.json keep: how many documents, how many right, overall and in the weakest type. */
export function accuracyFigures(byType: Map<string, { total: number; correct: number }>): Record<string, number> {
  const tallies = [...byType.values()];
  const documents = tallies.reduce((sum, tally) => sum + tally.total, 0);
  const right = tallies.reduce((sum, tally) => sum + tally.correct, 0);
  return { documents, types: byType.size, right, accuracy: right / documents, weakest_type_accuracy: Math.min(...tallies.map((tally) => tally.correct / tally.total)) };
}

export function printAccuracy(title: string, byType: Map<string, { total: number; correct: number }>): void {
  const total = [...byType.values()].reduce((sum, tally) => sum + tally.total, 0);
  const correct = [...byType.values()].reduce((sum, tally) => sum + tally.correct, 0);
  const lines = [...byType.entries()].map(([type, tally]) => `  ${type.padEnd(28)} ${tally.correct}/${tally.total}  ${(tally.correct / tally.total).toFixed(2)}`);
  process.stdout.write(`${title}: ${correct}/${total} = ${(correct / total).toFixed(3)}\n${lines.join('\n')}\n`);
}

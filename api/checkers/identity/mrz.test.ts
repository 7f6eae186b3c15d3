import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkDigit, mrzDate, parseMrz } from './mrz.ts';
import { mergeReadings } from './mrz-merge.ts';
import { zoneFromLines } from './mrz-read.ts';
import { firstDate, printedAgreement, readPrintedFields } from './printed-fields.ts';

// ICAO Doc 9303's own specimens (part 4, appendix; part 5; part 7).
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const TD1 = ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'];
const MRVA = ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L8988901C4XXX4009078F96121096ZE184226B<<<<<<'];

test('check digits are Doc 9303 part 3 section 4.9 (weights 7, 3, 1; letters 10 to 35; fillers 0)', () => {
  assert.equal(checkDigit('L898902C3'), '6');
  assert.equal(checkDigit('740812'), '2');
  assert.equal(checkDigit('<<<<<<'), '0');
  assert.equal(checkDigit('D23145890'), '7');
});

test('a TD3 passport zone parses into its fields with every check digit verifying', () => {
  const zone = parseMrz(TD3)!;
  assert.equal(zone.format, 'TD3');
  assert.deepEqual(
    { ...zone.fields },
    { document_code: 'P<', issuing_state: 'UTO', document_number: 'L898902C3', surname: 'ERIKSSON', given_names: 'ANNA MARIA', nationality: 'UTO', birth_date: '740812', sex: 'F', expiry_date: '120415', optional_data: 'ZE184226B' },
  );
  assert.deepEqual(zone.checks.map((check) => [check.name, check.valid]), [['document_number', true], ['birth_date', true], ['expiry_date', true], ['personal_number', true], ['composite', true]]);
  assert.equal(zone.valid, true);
  assert.deepEqual(zone.corrections, []);
});

test('TD1 and MRV-A zones parse; a visa has no composite check digit', () => {
  const card = parseMrz(TD1)!;
  assert.equal(card.format, 'TD1');
  assert.equal(card.fields.document_number, 'D23145890');
  assert.equal(card.valid, true);
  const visa = parseMrz(MRVA)!;
  assert.equal(visa.format, 'MRVA');
  assert.equal(visa.fields.nationality, 'XXX');
  assert.deepEqual(visa.checks.map((check) => check.name), ['document_number', 'birth_date', 'expiry_date']);
  assert.equal(parseMrz(['P<UTO', 'L898902C3']), null);
});

test('a look-alike is repaired only where the field type decides, and every repair is reported', () => {
  // O for 0 in the birth date (digits only) and 0 for O in the issuing state (letters only).
  const zone = parseMrz(['P<UT0ERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO74O8122F1204159ZE184226B<<<<<10'])!;
  assert.equal(zone.fields.issuing_state, 'UTO');
  assert.equal(zone.fields.birth_date, '740812');
  assert.equal(zone.valid, true);
  assert.deepEqual(
    zone.corrections.map((correction) => [correction.line, correction.column, correction.field, correction.read, correction.taken]),
    [[1, 5, 'issuing_state', '0', 'O'], [2, 16, 'birth_date', 'O', '0']],
  );
  // The document number takes letters and digits both: an O there stays an O, and its check digit fails as read.
  const number = parseMrz(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'.replace('L898902C3', 'L8989O2C3')])!;
  assert.equal(number.fields.document_number, 'L8989O2C3');
  assert.equal(number.checks.find((check) => check.name === 'document_number')!.valid, false);
  assert.equal(number.corrections.length, 0);
});

test('a zone whose printed check digits fail still fails after reading: no repair is chosen to make a check pass', () => {
  // The Maltese specimen prints wrong document-number and birth-date check digits (fixtures/corpora/identity).
  const zone = parseMrz(['IDMLT9999999<<3<9999999M<999<<', '7309258F0810245MLT0310240<<<<5', 'SPITERI<MANDY<<<<<<<<<<<<<<<<<'])!;
  assert.deepEqual(zone.checks.map((check) => [check.name, check.valid]), [['document_number', false], ['birth_date', false], ['expiry_date', true], ['composite', false]]);
  // A second reading that disagrees only where the first is right cannot make it pass either.
  const merged = mergeReadings(zone, ['IDMLT9999999<<3<9999999M<999<<', '7309258F0810245MLT0310240<<<<5', 'SPITERI<MANDY<<<<<<<<<<<<<<<<<']);
  assert.equal(merged.valid, false);
});

test('two readings are merged: a check digit chooses only between characters actually read, and each choice is reported', () => {
  // The shape reader read the document number's 0 as O and an M as H; the line reader read both right but its fillers as K and L.
  const shape = parseMrz(['P<UTOERIKSSON<<ANNA<HARIA<<<<<<<<<<<<<<<<<<<', 'L8989O2C36UTO7408122F1204159ZE184226B<<<<<10'])!;
  assert.equal(shape.valid, false);
  const merged = mergeReadings(shape, ['P<UTOERIKSSONK<ANNA<MARIA<LLLLLLLLLLLLKLKLK', 'L898902C36UT07408122F1204159ZE184226B<<<<<10']);
  assert.equal(merged.valid, true);
  assert.equal(merged.fields.document_number, 'L898902C3');
  assert.equal(merged.fields.given_names, 'ANNA MARIA');
  const reasons = merged.corrections.map((correction) => `${correction.field} ${correction.read}>${correction.taken}: ${correction.reason}`);
  assert.ok(reasons.some((reason) => /^document_number O>0: .*document number check digit verify/.test(reason)), reasons.join('\n'));
  assert.ok(reasons.some((reason) => /^name H>M: .*line reader/.test(reason)), reasons.join('\n'));
});

test("where the readings differ by characters no check digit can tell apart (8 and S weigh 8 and 28), the line reader's are taken", () => {
  // The Polish specimen (fixtures/corpora/identity/passporteye-62_pass-pol.png) as the two readers read its number.
  const lines = ['P<POLKOWALSKACCANNACLLCLLLLLLLLLLLLCLCLLLLLLKLKL', 'ZS00001774POL7203305F1607130<<<<<<<<<<<<<<0OB'];
  const shape = parseMrz(['P<POLKOHALSKA<<ANNA<<<<<<<<<<<<<<<<<<<<<<<<<', '2800001774POL7203305F1607130<<<<<<<<<<<<<<08'])!;
  assert.equal(shape.valid, false);
  const merged = mergeReadings(shape, lines);
  // The 2 for Z is what makes the check digit verify; the 8 for S verifies either way and is the line reader's.
  assert.equal(merged.fields.document_number, 'ZS0000177');
  assert.equal(merged.valid, true);
  // Where the readings' difference shows in the check digit, the fewest departures from the shape reader still win.
  const zero = mergeReadings(parseMrz(['P<POLKOWALSKA<<ANNA<<<<<<<<<<<<<<<<<<<<<<<<<', 'Z800001774POL7203305F1607130<<<<<<<<<<<<<<08'])!, ['P<POLKOWALSKA<<ANNA', 'ZSO0001774POL7203305F1607130<<<<<<<<<<<<<<08']);
  assert.equal(zero.fields.document_number, 'ZS0000177');
  // A blind difference never makes a failing check digit pass.
  const failing = mergeReadings(parseMrz(['P<POLKOWALSKA<<ANNA<<<<<<<<<<<<<<<<<<<<<<<<<', 'Z800001775POL7203305F1607130<<<<<<<<<<<<<<08'])!, [lines[0]!, 'ZS00001775POL7203305F1607130<<<<<<<<<<<<<<08']);
  assert.equal(failing.fields.document_number, 'Z80000177');
});

test("an issuing state the shape reader reads as another real code is the line reader's code", () => {
  // The Portuguese card (arg0s-mrz-portugal.png): PRT read as PRI (Puerto Rico) by the shape reader, beside a Brazilian nationality.
  const shape = parseMrz(['IRPRI1234AZ5679<<<<<<<<<<<<<<<', '7404076F0912220BRA<<<<<<<<<<<4', 'GARCAO<DE<MAGALHAES<<INES<<<<<'])!;
  const merged = mergeReadings(shape, ['IRPRT1234A25679<<<<<<<<<<<<<<KL', '7404076F0912220BRA<CLCLCCLCCCLCL<Y', 'GARCAO<DE<MAGALHAES<<INES<<<<KL']);
  assert.equal(merged.fields.issuing_state, 'PRT');
  assert.equal(merged.fields.nationality, 'BRA');
  assert.ok(merged.corrections.some((correction) => correction.field === 'issuing_state' && /both are codes/.test(correction.reason)));
  // A line reader's reading that is no code leaves the shape reader's code.
  assert.equal(mergeReadings(shape, ['IRPRX1234AZ5679<<<<<<<<<<<<<<<']).fields.issuing_state, 'PRI');
});

test('read lines are fitted to their layout without changing a character: a miscounted filler run, junk before the code', () => {
  const read = zoneFromLines(['xx', 'IP<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<<10']);
  assert.deepEqual(read.zone?.lines, TD3);
  assert.equal(read.zone?.valid, true);
  assert.equal(read.adjustments.length, 2);
  // Lines that only have a zone's lengths are not a zone: no document code, no date.
  assert.equal(zoneFromLines(['GB00MSFT12345698765432100000000000000000000', 'INVOICE0000123456789000000000000000000000000']).zone, null);
});

test('dates: a zone birth date is never in the future; printed dates read day or month first', () => {
  assert.equal(mrzDate('740812', 'birth', '2026-06-01'), '1974-08-12');
  assert.equal(mrzDate('120415', 'expiry', '2026-06-01'), '2012-04-15');
  assert.equal(mrzDate('941101', 'expiry', '2026-06-01'), '1994-11-01');
  assert.equal(mrzDate('7408<<', 'birth', '2026-06-01'), null);
  assert.equal(firstDate('12 AUG/AOUT 74', false), '1974-08-12');
  assert.equal(firstDate('05/31/28', true), '2028-05-31');
  assert.equal(firstDate('12.08.1974', false), '1974-08-12');
});

test('printed fields are read by their labels and compared with the zone', () => {
  const page = { page: 1, width: 100, height: 60, source: 'ocr' as const, items: [], confidence: 1, text: 'Surname\nERIKSSON\nGiven names\nANNA MARIA\nDate of birth 12 AUG 1974\nDate of expiry 15 APR 2012\nPassport No. L898902C3' };
  const printed = readPrintedFields(page, false);
  assert.deepEqual(printed, { name: 'ANNA MARIA ERIKSSON', date_of_birth: '1974-08-12', document_number: 'L898902C3', expiry: '2012-04-15', address: null });
  assert.deepEqual(printedAgreement(printed, parseMrz(TD3)!, '2026-06-01'), { document_number: true, date_of_birth: true, expiry: true });
  assert.deepEqual(printedAgreement({ ...printed, expiry: '2024-03-01' }, parseMrz(TD3)!, '2026-06-01').expiry, false);
});

test('printed fields by layout: a licence prints each label over its value, in columns', () => {
  const item = (text: string, x: number, y: number) => ({ text, x, y, width: text.length * 5, height: 8, font: null });
  const page = { page: 1, width: 200, height: 120, source: 'ocr' as const, confidence: 1, text: '', items: [item('4b EXP', 10, 10), item('3 DOB', 80, 10), item('01/20/2020', 10, 20), item('03/18/1978', 80, 20), item('4d NUMBER', 10, 40), item('820BAC729CBAC', 10, 50)] };
  const printed = readPrintedFields(page, true);
  assert.equal(printed.expiry, '2020-01-20');
  assert.equal(printed.date_of_birth, '1978-03-18');
  assert.equal(printed.document_number, '820BAC729CBAC');
});

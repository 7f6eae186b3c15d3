import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMrz } from './mrz.ts';
import { settleLookAlikes } from './mrz-repair.ts';

// Zones as the MRZ reader read them from the identity corpus (fixtures/corpora/identity), with their misreads.
const SWEDEN = ['I<SWES9000002<8198703142391<<<', '8703145M1701027SWE<<<<<<<<<<<8', 'SPECIMEN<<SVEN<<<<<<<<<<<<<<<<'];
const ICELAND = ['P<ISLAEVARSDOTTIR<<THURIDUR<OESP<<<<<<<<<<<<', 'AOUDOODD<OISL6612315F0905264311266<9539<<<32'];

test('a document number read with a letter for a digit is settled when the check digits confirm the reading', () => {
  const zone = settleLookAlikes(parseMrz(SWEDEN)!);
  assert.equal(zone.fields.document_number, '59000002');
  assert.equal(zone.valid, true);
  assert.deepEqual(zone.corrections.map((correction) => [correction.line, correction.column, correction.field, correction.read, correction.taken]), [[1, 6, 'document_number', 'S', '5']]);
  assert.match(zone.corrections[0]!.reason, /check digits covering it verify/);
});

test('a run of digits read as look-alike letters is read again as digits, all at once', () => {
  const zone = settleLookAlikes(parseMrz(ICELAND)!);
  // D for 0 alone would verify too (AOUDOOD0 happens to), but leaves six digit-like letters in a number.
  assert.equal(zone.fields.document_number, 'A0000000');
  assert.equal(zone.valid, true);
});

test('a reading the check digits would pass by chance is not taken when it breaks the number into more runs', () => {
  // Read XS1236S67 for XS1234567: I for 1 verifies both check digits by chance, but XSI236S67 is no more a run than XS1236S67.
  const zone = settleLookAlikes(parseMrz(['P<JPNGAIMU<<SAKURA<<<<<<<<<<<<<<<<<<<<<<<<<<', 'XS1236S673JPN7902206F1603202<<<<<<<<<<<<<<02'])!);
  assert.equal(zone.fields.document_number, 'XS1236S67');
  assert.equal(zone.valid, false);
});

test('a zone whose printed check digits fail stays failing', () => {
  // The Maltese specimen prints wrong document-number and birth-date check digits.
  const malta = settleLookAlikes(parseMrz(['IDMLT9999999<<3<9999999M<999<<', '7309258F0810245MLT0310240<<<<5', 'SPITERI<MANDY<<<<<<<<<<<<<<<<<'])!);
  assert.equal(malta.valid, false);
  assert.deepEqual(malta.corrections, []);
  // ICAO's own specimen with one check digit altered: no look-alike of what it covers makes it verify with the composite.
  const altered = settleLookAlikes(parseMrz(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C37UTO7408122F1204159ZE184226B<<<<<10'])!);
  assert.equal(altered.valid, false);
  assert.equal(altered.fields.document_number, 'L898902C3');
});

test('a code that is no Doc 9303 code is read as the one code a look-alike or two away', () => {
  const zone = settleLookAlikes(parseMrz(['I<LTU11810187<346411231034<<<<', '6411231F1901012L7O<<<<<<<<<<<9', 'BASANAVICIENE<<BIRUTE<<<<<<<<<'])!);
  assert.equal(zone.fields.nationality, 'LTU');
  assert.ok(zone.corrections.some((correction) => correction.field === 'nationality' && /no code of Doc 9303/.test(correction.reason)));
  // A code that is one stays as read, even beside a different nationality.
  assert.equal(settleLookAlikes(parseMrz(['IRPRI1234AZ5679<<<<<<<<<<<<<<<', '7404076F0912220BRA<<<<<<<<<<<4', 'GARCAO<DE<MAGALHAES<<INES<<<<<'])!).fields.issuing_state, 'PRI');
});

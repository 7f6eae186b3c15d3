import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMrz } from './mrz.ts';
import { mergeReadings } from './mrz-merge.ts';
import { nameFromLineReader } from './mrz-name-tokens.ts';
import { statesByAgreement } from './mrz-states.ts';

// Readings of the identity corpus (fixtures/corpora/identity): the shape reader's zone and the line reader's lines.
const LITHUANIA_SHAPE = ['I<LTU11810187<346411231034<<<<', '6411231F1901012LTU<<<<<<<<<<<9', 'OASMMVICIENE<<O3IUH<<<<<<<<<<<'];
const LITHUANIA_LINES = ['ISLTUTIB10187<346411231034<<<<', '6411231F1901012LTUCLCCCCCCC<C<<H', 'BASANAVICIENE<<BIRUTE<<<<C<<<<<'];

test("a name's words are taken from the line reader between the shape reader's separators, their length with them", () => {
  // As the reader runs them: the two readings merged character by character first (mrz-merge.ts), then word by word.
  const zone = nameFromLineReader(mergeReadings(parseMrz(LITHUANIA_SHAPE)!, LITHUANIA_LINES), LITHUANIA_LINES);
  assert.equal(zone.lines[2], 'BASANAVICIENE<<BIRUTE<<<<<<<<<');
  assert.equal(zone.fields.surname, 'BASANAVICIENE');
  assert.equal(zone.fields.given_names, 'BIRUTE');
  assert.ok(zone.corrections.some((correction) => correction.field === 'name' && /word boundaries/.test(correction.reason)));
});

test("fillers the line reader reads as letters stay fillers: the shape reader's separators stand", () => {
  const shape = ['IDESPOQAOOO539599999990II<<<<<', '8001014F2501017ESP<<<<<<<<<<<7', 'ESPANOLA<ESPANOA<<CARME<<<<<<<'];
  const zone = nameFromLineReader(parseMrz(shape)!, ['LDESPBAADDOSEO599999990RCCCC<<', 'BOOT0Y4F2S501017ESPCCCC<CC', 'ESPANOLA<ESPANOLA<CC<CARMEN<<CC<CC']);
  assert.equal(zone.lines[2], 'ESPANOLA<ESPANOLA<<CARMEN<<<<<');
  // Nothing else of the zone moves.
  assert.deepEqual(zone.lines.slice(0, 2), shape.slice(0, 2));
});

test('a word the line reader reads as another word, or not as letters, is left as the shape reader read it', () => {
  const shape = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
  assert.deepEqual(nameFromLineReader(parseMrz(shape)!, ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<']).lines, shape);
  assert.equal(nameFromLineReader(parseMrz(shape)!, ['P<UTOER1KS5ON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<']).fields.surname, 'ERIKSSON');
  assert.equal(nameFromLineReader(parseMrz(shape)!, ['P<UTOXQZWVBJY<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<']).fields.surname, 'ERIKSSON');
});

test('an issuing state and nationality that differ by a look-alike are one code, the one most readings give', () => {
  const portugal = ['P<PRIFERREIRA<<MARIA<<<<<<<<<<<<<<<<<<<<<<<<', 'L898902C36PRT7408122F1204159ZE184226B<<<<<10'];
  const zone = statesByAgreement(parseMrz(portugal)!, ['P<PRTFERREIRA<<MARIA<<<<<<<<<<<<<<<<<<<<<<<<', 'L898902C36PRT7408122F1204159ZE184226B<<<<<10']);
  assert.equal(zone.fields.issuing_state, 'PRT');
  assert.equal(zone.fields.nationality, 'PRT');
  assert.match(zone.corrections.at(-1)!.reason, /look-alike letters; PRT is what 3 of the 4 readings/);
  // A tie leaves them as read; states that differ otherwise are never touched.
  assert.equal(statesByAgreement(parseMrz(portugal)!, []).fields.issuing_state, 'PRI');
  const permit = statesByAgreement(parseMrz(['IRNLD12345678<4<<<<<<<<<<<<<<<', '9404014F1106172CHE<<<<<<<<<<<2', 'BELSER<<JULIETTE<<<<<<<<<<<<<<'])!, ['IRCHE12345678<4<<<<<<<<<<<<<<<']);
  assert.equal(permit.fields.issuing_state, 'NLD');
});

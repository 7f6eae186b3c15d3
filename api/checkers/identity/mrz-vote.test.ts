import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMrz } from './mrz.ts';
import { voteByLine, type LineReading } from './mrz-vote.ts';

// Doc 9303 part 4's specimen TD3 zone: every check digit verifies.
const NAME_LINE = 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<';
const DATA_LINE = 'L898902C36UTO7408122F1204159ZE184226B<<<<<10';

function zoneOf(line2: string) {
  const zone = parseMrz([NAME_LINE, line2]);
  assert.ok(zone !== null);
  return zone;
}

const readingsOf = (line: number, texts: string[], reader: LineReading['reader'] = 'shapes'): LineReading[] => texts.map((text) => ({ line, text, reader }));

test('a document number misread in the band is voted back when two readings of the line alone give the character that verifies', () => {
  const misread = zoneOf(DATA_LINE.replace('L898902C3', 'L898902G3'));
  assert.equal(misread.checks.find((check) => check.name === 'document_number')?.valid, false);
  const voted = voteByLine(misread, readingsOf(1, [DATA_LINE, DATA_LINE]));
  assert.equal(voted.fields.document_number, 'L898902C3');
  assert.equal(voted.valid, true);
  const correction = voted.corrections.find((entry) => entry.line === 2 && entry.column === 8);
  assert.equal(correction?.read, 'G');
  assert.equal(correction?.taken, 'C');
  assert.match(correction?.reason ?? '', /2 of 3 readings/);
});

test('one reading alone is a misread, not a vote: a character only it gives is never taken, even where it would verify', () => {
  const misread = zoneOf(DATA_LINE.replace('L898902C3', 'L898902G3'));
  const voted = voteByLine(misread, readingsOf(1, [DATA_LINE, DATA_LINE.replace('L898902C3', 'L898902G3')]));
  assert.equal(voted.fields.document_number, 'L898902G3');
  assert.equal(voted.valid, false);
});

test('a zone that prints a failing check digit, read alike by every reading, stays failing', () => {
  const printedWrong = DATA_LINE.replace('7408122F', '7408123F');
  const voted = voteByLine(zoneOf(printedWrong), readingsOf(1, [printedWrong, printedWrong, printedWrong.replace('7408123', '7408122')]));
  assert.equal(voted.checks.find((check) => check.name === 'birth_date')?.valid, false);
  assert.equal(voted.lines[1], printedWrong);
});

test('a data line the band read shifted (a character dropped before the sex) is replaced by the reading of it alone that agrees most with the others', () => {
  const shifted = 'L898902C36UTO74081221204159ZE184226B<<<<<<10';
  const read = zoneOf(shifted);
  assert.equal(read.valid, false);
  const voted = voteByLine(read, [...readingsOf(1, [DATA_LINE, `I${DATA_LINE}`]), ...readingsOf(1, [DATA_LINE], 'lines')]);
  assert.equal(voted.lines[1], DATA_LINE);
  assert.equal(voted.fields.sex, 'F');
  assert.equal(voted.fields.expiry_date, '120415');
  assert.equal(voted.valid, true);
});

test('a name is left as read: the vote does not touch its letters', () => {
  const misread = parseMrz(['P<UTOERIKSSON<<ANNA<NARIA<<<<<<<<<<<<<<<<<<<', DATA_LINE]);
  assert.ok(misread !== null);
  const voted = voteByLine(misread, readingsOf(0, ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<'], 'lines'));
  assert.equal(voted.fields.given_names, 'ANNA NARIA');
});

test('the sex takes what a majority of the readings give', () => {
  const read = zoneOf(DATA_LINE.replace('7408122F', '7408122M'));
  const voted = voteByLine(read, readingsOf(1, [DATA_LINE, DATA_LINE]));
  assert.equal(voted.fields.sex, 'F');
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameMismatch } from './file-reading.ts';

test('a name claiming another kind than the content is refused; an agreeing or unknown name passes', () => {
  assert.equal(nameMismatch('Tender.PDF', 'pdf'), null);
  assert.equal(nameMismatch('scan.jpeg', 'image'), null);
  assert.equal(nameMismatch('notes.md', 'text'), null);
  assert.equal(nameMismatch('schedule', 'docx'), null, 'no extension claims nothing');
  assert.equal(nameMismatch('archive.v2', 'pdf'), null, 'an extension we do not know claims nothing');
  assert.equal(nameMismatch(null, 'pdf'), null);
  assert.equal(
    nameMismatch('returnable-schedules.docx', 'pdf'),
    'returnable-schedules.docx is named as a Word document (.docx) but its content is a PDF; check you chose the right file, or rename it to match what it is.',
  );
  assert.match(nameMismatch('photo.png', 'text')!, /named as an image \(\.png\) but its content is plain text/);
});

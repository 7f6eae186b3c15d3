import assert from 'node:assert/strict';
import { test } from 'node:test';
import { contentEvents } from './pdf-content-stream.ts';

const events = (content: string) => contentEvents(Buffer.from(content, 'latin1'));

test('text positions follow the text matrix and the current transformation matrix', () => {
  const [shown] = events('q 2 0 0 2 10 20 cm BT /F1 10 Tf 5 6 Td (Hi) Tj ET Q');
  assert.ok(shown?.kind === 'text');
  // (5 + 1, 6 + 3) in text space after Td, scaled by 2 and moved by (10, 20).
  assert.deepEqual([shown.x, shown.y, shown.sample], [22, 38, 'Hi']);
});

test('fills report their colour; q/Q restores the colour of the outer state', () => {
  const fills = events('1 1 1 rg q 0 g 0 0 10 10 re f Q 0 0 5 5 re f 0 0 0 1 k 1 1 2 2 re f').filter((event) => event.kind === 'fill');
  assert.deepEqual(
    fills.map((event) => event.kind === 'fill' && event.white),
    [false, true, false],
  );
});

test('TJ arrays, escaped and hex strings and inline images are read without losing the operators after them', () => {
  const shown = events('BT /F1 12 Tf [(A\\(b\\)) -250 (C\\101)] TJ <48 69> Tj ET BI /W 2 /H 1 ID \x00\xff EI 3 Tr BT (x) Tj ET').filter((event) => event.kind === 'text');
  assert.deepEqual(
    shown.map((event) => event.kind === 'text' && [event.sample, event.invisible]),
    [
      ['A(b)CA', false],
      ['Hi', false],
      ['x', true],
    ],
  );
});

test('marked-content tags are reported (the TouchUp_TextEdit marker is one)', () => {
  assert.deepEqual(events('/TouchUp_TextEdit MP /Span << /ActualText (x) >> BDC EMC').filter((event) => event.kind === 'marker').map((event) => event.kind === 'marker' && event.tag), ['TouchUp_TextEdit', 'Span']);
});

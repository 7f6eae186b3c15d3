import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TENDER_KEY_PATTERN, tenderKey } from './keys.ts';

const base = { source: 'au_federal_austender_atm', jurisdiction: 'AU', buyer: 'Australian Signals Directorate', reference: 'ASD-COM-2026-35', title: 'ASD Essentials Training Provider', url: 'https://www.tenders.gov.au/Atm/Show/85a96ecf' };

test('a tender key is 32 hex over jurisdiction, buyer and reference, and ignores case, spacing, title and URL', () => {
  const key = tenderKey(base);
  assert.match(key, /^[0-9a-f]{32}$/);
  assert.equal(tenderKey({ ...base, buyer: '  australian  SIGNALS directorate ', reference: 'asd-com-2026-35' }), key);
  assert.equal(tenderKey({ ...base, title: 'Renamed title', url: 'https://elsewhere/x', source: 'other' }), key, 'stable when the title or link changes');
  assert.notEqual(tenderKey({ ...base, jurisdiction: 'AU-NSW' }), key);
  assert.notEqual(tenderKey({ ...base, reference: 'ASD-COM-2026-36' }), key);
});

test('a tender with neither reference nor buyer gets the f-form over source, URL and title', () => {
  const key = tenderKey({ ...base, buyer: null, reference: null });
  assert.match(key, /^f[0-9a-f]{32}$/);
  assert.match(key, TENDER_KEY_PATTERN);
  assert.notEqual(tenderKey({ ...base, buyer: null, reference: null, url: 'https://www.tenders.gov.au/Atm/Show/other' }), key);
});

test('a buyer without references does not collide across its tenders', () => {
  const a = tenderKey({ ...base, reference: null, title: 'Cleaning' });
  const b = tenderKey({ ...base, reference: null, title: 'Security' });
  assert.notEqual(a, b);
  assert.match(a, /^[0-9a-f]{32}$/);
});

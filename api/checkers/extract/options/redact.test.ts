import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutPdf, readLayoutPdf, type PlacedText } from '../../../../test/helpers/layout-pdf.ts';
import { abn, medicare, tfn } from '../../../../test/helpers/labelled-numbers.ts';
import { seededRandom } from '../../../../test/helpers/seeded-random.ts';
import { recordMeasured } from '../../../../test/helpers/measured.ts';
import { validAbaRouting, validGstin, vatCheck } from './identifier-checks.ts';
import { piiSpans, redact, validAbn, validMedicare, validTfn } from './redact.ts';

test('check digits: the ATO TFN, the ABR ABN and the Medicare card examples', () => {
  assert.equal(validTfn('123456782'), true);
  assert.equal(validTfn('123456781'), false);
  assert.equal(validAbn('51824753556'), true);
  assert.equal(validAbn('51824753557'), false);
  assert.equal(validMedicare('2123456701'), true);
  assert.equal(validMedicare('2123456711'), false);
});

test('a labelled TFN on a PDF: its span in the page text, its box and the masked text', async () => {
  const bytes = await layoutPdf([
    { texts: [{ text: 'Employee declaration', x: 50, top: 50, size: 14 }, { text: 'TFN', x: 50, top: 100 }, { text: '123 456 782', x: 200, top: 100 }, { text: 'Invoice 123456782', x: 50, top: 130 }] },
  ]);
  const { document, pages } = await readLayoutPdf(bytes);
  const result = await redact({ document, pages, fields: {}, settings: true });
  assert.equal(pages[0]!.text, 'Employee declaration\nTFN\t123 456 782\nInvoice 123456782');
  assert.deepEqual(result.spans.map(({ kind, page, start, end, basis }) => ({ kind, page, start, end, basis })), [{ kind: 'tfn', page: 1, start: 25, end: 36, basis: 'label' }]);
  const bbox = result.spans[0]!.bbox!;
  assert.deepEqual([bbox[0], bbox[1], bbox[3]], [200, 100, 10]);
  assert.ok(Math.abs(bbox[2]! - 50) < 8, `width ${bbox[2]}`);
  assert.equal(result.pages[0]!.text, 'Employee declaration\nTFN\t███ ███ ███\nInvoice 123456782');
  assert.deepEqual(result.counts, { tfn: 1, abn: 0, medicare: 0, bank_account: 0, email: 0, phone: 0, date_of_birth: 0, iban: 0, card_number: 0, vat: 0, tax_id: 0, national_id: 0, health_id: 0 });
});

test('phones of any country, accounts, tax, national and health identifiers of AU, NZ, US, UK, IN and the EU', () => {
  const spans = (text: string) => piiSpans(text).map((span) => [span.kind, text.slice(span.start, span.end)]);
  assert.deepEqual(spans('Tel. (870)-931-0505'), [['phone', '(870)-931-0505']]);
  assert.deepEqual(spans('fon +49 89 123456-0 and +44 20 7946 0958'), [['phone', '+49 89 123456-0'], ['phone', '+44 20 7946 0958']]);
  assert.deepEqual(spans('Phone: 09 69 36 66 66'), [['phone', '09 69 36 66 66']]);
  assert.deepEqual(spans('IBAN DE88 2008 0000 0970 3757 00'), [['iban', 'DE88 2008 0000 0970 3757 00']]);
  // A failed mod 97 is still masked beside an IBAN label (sample and mistyped accounts), never alone.
  assert.deepEqual(piiSpans('IBAN DE88 2008 0000 0970 3757 01').map((span) => span.basis), ['label']);
  assert.deepEqual(spans('Ref DE88 2008 0000 0970 3757 01'), []);
  assert.deepEqual(spans('TVA FR 74 397 480 930'), [['vat', 'FR 74 397 480 930']]);
  assert.deepEqual(spans('R.C.S. PARIS - FR 75 397 480 930'), []);
  assert.deepEqual(spans('ACN 004 085 616'), [['tax_id', '004 085 616']]);
  assert.deepEqual(spans('NZBN 9429041234567'), [['tax_id', '9429041234567']]);
  assert.deepEqual(spans('CUIT Nº: 20-17254359-7'), [['tax_id', '20-17254359-7']]);
  assert.deepEqual(spans('Sort code 20-00-00 55779911'), [['bank_account', '20-00-00 55779911']]);
  assert.deepEqual(spans('use our account 09-0800-7006543-00 or'), [['bank_account', '09-0800-7006543-00']]);
  assert.deepEqual(spans('Ref 12-3140-012-00'), []);
  assert.deepEqual(spans('Číslo účtu\t156546546465'), [['bank_account', '156546546465']]);
  assert.deepEqual(spans('(555) 867-5309'), [['phone', '(555) 867-5309']]);
  assert.deepEqual(spans('Telefax (0 69) 99 12 77'), [['phone', '(0 69) 99 12 77']]);
  assert.deepEqual(spans('T 77.80'), []);
  assert.deepEqual(spans('USt-IdNr. DE123456789'), [['vat', 'DE123456789']]);
  assert.deepEqual(spans('GSTIN 27AAPFU0939F1ZV'), [['vat', '27AAPFU0939F1ZV']]);
  assert.deepEqual(spans('PAN AAPFU0939F'), [['tax_id', 'AAPFU0939F']]);
  assert.deepEqual(spans('Steuernummer: 201/113/40209'), [['tax_id', '201/113/40209']]);
  assert.deepEqual(spans('SSN 123-45-6789'), [['national_id', '123-45-6789']]);
  assert.deepEqual(spans('NI number AB 12 34 56 C'), [['national_id', 'AB 12 34 56 C']]);
  assert.deepEqual(spans('Aadhaar 2345 6789 0124'), [['national_id', '2345 6789 0124']]);
  assert.deepEqual(spans('Aadhaar 2345 6789 0125'), []);
  assert.deepEqual(spans('NHS number 943 476 5919'), [['health_id', '943 476 5919']]);
  assert.deepEqual(spans('IRD number 49-091-850'), [['tax_id', '49-091-850']]);
  assert.deepEqual(spans('Card 4111 1111 1111 1111'), [['card_number', '4111 1111 1111 1111']]);
  assert.deepEqual(spans('Kontonr.: 1234 5678 90'), [['bank_account', '1234 5678 90']]);
  // Nine digits alone are as likely an invoice number: no phone without a label or an international prefix.
  assert.deepEqual(spans('Invoice 301524887'), []);
  // A price after a letter that reads as a phone label (an OCR'd call-out "10" as "M") is money.
  assert.deepEqual(spans('TOTAL (excl GST) M 197.00'), []);
  assert.deepEqual(spans('M 0412 345 678'), [['phone', '0412 345 678']]);
});

test('settings choose the kinds; unknown settings are refused', async () => {
  const pages = [{ page: 1, width: 595, height: 842, source: 'ocr' as const, confidence: 0.9, text: '', items: [{ text: 'Email jo@example.com  ABN 51 824 753 556', x: 10, y: 10, width: 300, height: 10, font: null }] }];
  const document = { bytes: new Uint8Array(), sha256: 'x', kind: 'image' as const, mime: 'image/png', filename: null };
  const result = await redact({ document, pages, fields: {}, settings: { kinds: ['email'] } });
  assert.deepEqual(result.spans.map((span) => span.kind), ['email']);
  await assert.rejects(redact({ document, pages, fields: {}, settings: { kinds: ['passport'] } }));
});

/** One line of a labelled document: what it prints and the personal information in it (kind, exact text). */
interface LabelledLine {
  label: string;
  value: string;
  expected: { kind: string; text: string }[];
}

function labelledLines(random: () => number): LabelledLine[] {
  const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const t = tfn(random);
  const a = abn(random);
  const m = medicare(random);
  const bsb = `0${Math.floor(random() * 9) + 1}${Math.floor(random() * 10)}-${100 + Math.floor(random() * 900)}`;
  const account = `${1000 + Math.floor(random() * 9000)} ${1000 + Math.floor(random() * 9000)}`;
  const email = `${pick(['jane.citizen', 'a.nguyen', 'payroll', 'j_smith'])}@${pick(['example.com.au', 'mail.example.org', 'firm.net'])}`;
  const phone = pick(['(02) 9876 5432', '0412 345 678', '+61 3 9123 4567', '1300 123 456', '08 8123 4567']);
  const dob = pick(['14/07/1985', '3 March 1990', '1979-12-01', '02.11.1968']);
  const positives: LabelledLine[] = [
    { label: pick(['Tax file number:', 'TFN']), value: t, expected: [{ kind: 'tfn', text: t }] },
    { label: 'Your reference', value: tfn(random), expected: [] },
    { label: pick(['ABN', 'Supplier ABN:', 'Employer ABN']), value: a, expected: [{ kind: 'abn', text: a }] },
    { label: 'Medicare card', value: m, expected: [{ kind: 'medicare', text: m }] },
    { label: `BSB ${bsb}`, value: `Account ${account}`, expected: [{ kind: 'bank_account', text: bsb }, { kind: 'bank_account', text: account }] },
    { label: 'Email:', value: email, expected: [{ kind: 'email', text: email }] },
    { label: pick(['Phone', 'Mobile', 'Contact']), value: phone, expected: [{ kind: 'phone', text: phone }] },
    { label: pick(['Date of birth:', 'DOB', 'Born on']), value: dob, expected: [{ kind: 'date_of_birth', text: dob }] },
  ];
  // The same kinds inside sentences, where a label is words rather than a field name.
  const sentencePhone = pick(['0413 222 901', '(03) 9555 0101', '+61 412 000 777']);
  const sentenceEmail = `${pick(['sam', 'hr.team'])}@${pick(['example.org', 'agency.gov.au'])}`;
  const spacelessTfn = tfn(random).replace(/ /g, '');
  const sentenceDob = pick(['3 March 1990', '21/09/1975']);
  positives.push(
    { label: 'Please call me on', value: `${sentencePhone} after 5pm.`, expected: [{ kind: 'phone', text: sentencePhone }] },
    { label: 'Send the signed form to', value: `${sentenceEmail}.`, expected: [{ kind: 'email', text: sentenceEmail }] },
    { label: 'My TFN is', value: spacelessTfn, expected: [{ kind: 'tfn', text: spacelessTfn }] },
    { label: 'I was born on', value: `${sentenceDob} in Perth`, expected: [{ kind: 'date_of_birth', text: sentenceDob }] },
  );
  const distractors: LabelledLine[] = [
    { label: 'Invoice number', value: String(100000000 + Math.floor(random() * 899999999)), expected: [] },
    { label: 'Reference', value: tfn(random, false), expected: [] },
    { label: 'Supplier ABN', value: abn(random, false), expected: [] },
    { label: 'Ref', value: medicare(random, false), expected: [] },
    { label: 'Issue date:', value: pick(['01/02/2024', '15 June 2025', '2024-11-05']), expected: [] },
    { label: 'Total', value: `$${(random() * 9000 + 100).toFixed(2)}`, expected: [] },
    { label: 'Postcode', value: String(2000 + Math.floor(random() * 5000)), expected: [] },
    { label: 'Qty 12  Unit price', value: '45.00', expected: [] },
    { label: 'Card ending', value: String(1000 + Math.floor(random() * 9000)), expected: [] },
    { label: 'Order', value: `PO-${Math.floor(random() * 1e6)}`, expected: [] },
    { label: 'In an emergency call', value: '000 or 112', expected: [] },
    { label: 'Birth certificate issued', value: '01/02/2003', expected: [] },
    { label: 'Extension', value: String(2000 + Math.floor(random() * 999)), expected: [] },
    { label: 'Account name', value: 'J & K Citizen', expected: [] },
  ];
  // The grouped, unlabelled valid TFN is personal information by its check digit; it is listed as such.
  positives[1]!.expected.push({ kind: 'tfn', text: positives[1]!.value });
  const lines = [...positives, ...distractors];
  for (let i = lines.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [lines[i], lines[j]] = [lines[j]!, lines[i]!];
  }
  return lines;
}

test('measured on 24 generated documents: precision and recall per kind (floor 0.95)', async () => {
  const random = seededRandom(15);
  const tally = new Map<string, { expected: number; found: number; correct: number }>();
  const count = (kind: string) => tally.get(kind) ?? tally.set(kind, { expected: 0, found: 0, correct: 0 }).get(kind)!;
  for (let doc = 0; doc < 24; doc++) {
    const lines = labelledLines(random);
    const texts: PlacedText[] = lines.flatMap((line, i) => [
      { text: line.label, x: 50, top: 60 + i * 18 },
      { text: line.value, x: 220, top: 60 + i * 18 },
    ]);
    const { pages } = await readLayoutPdf(await layoutPdf([{ texts }]));
    const found = piiSpans(pages[0]!.text).map((span) => ({ kind: span.kind, text: pages[0]!.text.slice(span.start, span.end) }));
    const expected = lines.flatMap((line) => line.expected);
    for (const item of expected) count(item.kind).expected++;
    const unmatched = [...expected];
    for (const item of found) {
      count(item.kind).found++;
      const at = unmatched.findIndex((wanted) => wanted.kind === item.kind && wanted.text === item.text);
      if (at !== -1) {
        count(item.kind).correct++;
        unmatched.splice(at, 1);
      }
    }
  }
  let [expected, found, correct] = [0, 0, 0];
  for (const [kind, figures] of [...tally].sort()) {
    expected += figures.expected;
    found += figures.found;
    correct += figures.correct;
    console.log(`redact ${kind}: precision ${(figures.correct / figures.found).toFixed(3)} recall ${(figures.correct / figures.expected).toFixed(3)} (${figures.correct}/${figures.found} found, ${figures.expected} labelled)`);
  }
  const precision = correct / found;
  const recall = correct / expected;
  console.log(`redact overall: precision ${precision.toFixed(3)} recall ${recall.toFixed(3)} over ${expected} labelled spans`);
  assert.ok(precision >= 0.95, `precision ${precision}`);
  assert.ok(recall >= 0.95, `recall ${recall}`);
  // The capabilities reply (capabilities.ts) quotes the recorded figures.
  recordMeasured('extract-option-redact', {
    corpus: `24 generated documents with ${tally.size} kinds of personal number beside labels and inside sentences, and distractors (seeded)`,
    truth: 'The generator labels each span it wrote as personal information.',
    figures: { documents: 24, kinds: tally.size, spans: expected, found, right: correct, precision, recall },
    floors: { precision: 0.95, recall: 0.95 },
  });
});

test('check digits of VAT numbers (IT, ES, NL, BE, AT, PL, DE, FR), India GSTIN and US ABA routing numbers: published valid examples and one-digit changes', () => {
  // Valid: examples published by the tax administrations or in the VIES and GST documentation (and python-stdnum's tests); invalid: the last character changed.
  const valid = ['IT00743110157', 'ESA28015865', 'ESB58378431', 'ESX1234567L', 'ES12345678Z', 'NL004495445B01', 'NL000099998B57', 'BE0776091951', 'ATU13585627', 'PL8567346215', 'DE136695976', 'FR40303265045', '27AAPFU0939F1ZV', '29AAGCB7383J1Z4'];
  const invalid = ['IT00743110158', 'ESA28015866', 'ES12345678A', 'ESX1234567M', 'NL004495446B01', 'BE0776091952', 'ATU13585626', 'PL8567346216', 'DE136695977', 'FR41303265045', '27AAPFU0939F1ZW'];
  for (const number of valid) assert.equal(vatCheck(number), true, number);
  for (const number of invalid) assert.equal(vatCheck(number), false, number);
  assert.equal(vatCheck('SE556677889901'), null, 'no check is written for Sweden: its form alone is known');
  assert.equal(validGstin('27AAPFU0939F1ZV'), true);
  for (const routing of ['122000496', '011000015', '021000021']) assert.equal(validAbaRouting(routing), true, routing);
  for (const routing of ['122000497', '123456789', '000000000']) assert.equal(validAbaRouting(routing), false, routing);
  const bases = (text: string) => piiSpans(text).map((span) => [span.kind, span.basis]);
  // Unlabelled, a number whose published check fails is not masked; beside a VAT label it still is; a country without a check keeps its form.
  assert.deepEqual(bases('Ref IT00743110158'), []);
  assert.deepEqual(bases('Ref 27AAPFU0939F1ZW'), []);
  assert.deepEqual(bases('Ref IT00743110157'), [['vat', 'check_digit']]);
  assert.deepEqual(bases('P.IVA IT00743110158'), [['vat', 'label']]);
  assert.deepEqual(bases('Ref SE556677889901'), [['vat', 'format']]);
  assert.deepEqual(bases('ABA routing number 122000496'), [['bank_account', 'check_digit']]);
  assert.deepEqual(bases('Routing number 122000497'), [['bank_account', 'label']]);
});

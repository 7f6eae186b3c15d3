import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import JSZip from 'jszip';
import { firstPageStore } from '../api/checkers/first-page-cache.ts';
import { classifyPage, type DocumentClassification } from '../api/checkers/document-types.ts';
import { createContentCache } from '../api/checkers/_runner/content-cache.ts';
import { openStateDb } from '../data/state/db.ts';
import { base64, checkerApp, postFiles, postJson, tinyPdf, type CheckerApp } from './helpers/checker-app.ts';
import { hugePng, pageTreeLoopPdf } from './helpers/hostile-files.ts';
import { standInPdf } from './helpers/identity-documents.ts';
import { testStateLocation, SQLITE_ONLY } from './helpers/state.ts';

const PNG_HEADER = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xde]);

interface IdentityReply {
  scheme: { id: string };
  reason: string;
  documents: { filename: string | null; classified_type: string; note: string }[];
  sandbox?: boolean;
  detail?: string;
}

const file = (document: { bytes: Uint8Array; filename: string | null }) => ({ bytes: document.bytes, name: document.filename! });
const unitsUsed = async (checker: CheckerApp) => (await checker.state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;

describe('POST /v1/identity-check', () => {
  let checker: CheckerApp;
  before(async () => (checker = await checkerApp()));
  after(() => checker.close());

  it('reads multipart files in order with their names, judged by content, with the scheme from the query', async () => {
    const reply = await postFiles(checker.app, '/v1/identity-check?scheme=austrac_safe_harbour', 'files', [
      { bytes: tinyPdf('passport'), name: 'passport.png' },
      { bytes: PNG_HEADER, name: 'licence.pdf' },
    ]);
    assert.equal(reply.status, 200);
    const body = (await reply.json()) as IdentityReply;
    assert.equal(body.scheme.id, 'austrac_safe_harbour');
    assert.deepEqual(body.documents.map((document) => [document.filename, document.classified_type]), [['passport.png', 'pdf'], ['licence.pdf', 'image']]);
    assert.equal(body.reason, 'read 2 documents at 2026-06-10T02:00:00.000Z');
  });

  it('takes JSON documents as base64 with the scheme in the body, afp_100_point by default', async () => {
    const withScheme = (await (await postJson(checker.app, '/v1/identity-check', { documents: [{ bytes_b64: base64(tinyPdf('a')), filename: 'a.pdf' }], scheme: 'austrac_safe_harbour' })).json()) as IdentityReply;
    assert.equal(withScheme.scheme.id, 'austrac_safe_harbour');
    const byDefault = (await (await postJson(checker.app, '/v1/identity-check', { documents: [{ bytes_b64: base64(tinyPdf('a')), filename: 'a.pdf' }] })).json()) as IdentityReply;
    assert.equal(byDefault.scheme.id, 'afp_100_point');
    const clash = await postJson(checker.app, '/v1/identity-check?scheme=afp_100_point', { documents: [{ bytes_b64: base64(tinyPdf('a')) }], scheme: 'austrac_safe_harbour' });
    assert.equal(clash.status, 400);
    assert.match(((await clash.json()) as IdentityReply).detail!, /give the scheme once/);
  });

  it('refuses 11 documents, none, an empty one, malformed base64 and a type it does not read, each 400 naming the problem', async () => {
    const eleven = Array.from({ length: 11 }, (_, index) => ({ bytes_b64: base64(tinyPdf(String(index))) }));
    const cases: [unknown, RegExp][] = [
      [{ documents: eleven }, /^11 documents were sent; identity checks read at most 10 documents in one request\.$/],
      [{ documents: [] }, /^No document was sent; upload it in the multipart field `files`/],
      [{ documents: [{ bytes_b64: '', filename: 'blank.pdf' }] }, /^The document \(blank\.pdf\): bytes_b64 is empty/],
      [{ documents: [{ bytes_b64: 'JVBERi0x*LjQ=', filename: 'a.pdf' }] }, /^The document \(a\.pdf\): bytes_b64 is not base64: character 9 is "\*"/],
      [{ documents: [{ bytes_b64: base64(new TextEncoder().encode('just some words')), filename: 'id.pdf' }] }, /^The document \(id\.pdf\): received plain text; identity checks accept PDF, PNG, JPEG, WebP, BMP or TIFF\. The type is judged from the content, not the file name\.$/],
    ];
    for (const [body, detail] of cases) {
      const reply = await postJson(checker.app, '/v1/identity-check', body);
      assert.equal(reply.status, 400, JSON.stringify(body).slice(0, 80));
      assert.match(((await reply.json()) as IdentityReply).detail!, detail);
    }
    const zip = new JSZip();
    zip.file('scan.pdf', tinyPdf());
    const archive = await zip.generateAsync({ type: 'uint8array' });
    const zipped = await postFiles(checker.app, '/v1/identity-check', 'files', [{ bytes: tinyPdf(), name: 'a.pdf' }, { bytes: archive, name: 'licence.pdf' }]);
    assert.equal(zipped.status, 400);
    assert.equal(((await zipped.json()) as IdentityReply).detail, 'Document 2 (licence.pdf): received a ZIP archive; identity checks accept PDF, PNG, JPEG, WebP, BMP or TIFF. The type is judged from the content, not the file name.');
    const empty = await postFiles(checker.app, '/v1/identity-check', 'files', [{ bytes: new Uint8Array(0), name: 'blank.png' }]);
    assert.equal(empty.status, 400);
    assert.equal(((await empty.json()) as IdentityReply).detail, 'The document (blank.png) is empty (0 bytes); send the file\'s content.');
    assert.equal(await unitsUsed(checker), 3, 'only the three successful calls of the tests above counted');
  });

  it('answers identical documents and scheme from the stored result, free and marked, and inspects again with fresh=1', async () => {
    const before = await unitsUsed(checker);
    const body = { documents: [{ bytes_b64: base64(tinyPdf('cache me')), filename: 'c.pdf' }] };
    const first = await postJson(checker.app, '/v1/identity-check', body);
    assert.equal(first.headers.get('svc-cache'), null);
    const second = await postJson(checker.app, '/v1/identity-check', body);
    assert.equal(second.headers.get('svc-cache'), 'hit');
    assert.deepEqual(await second.json(), await first.json());
    assert.equal(await unitsUsed(checker), before + 1, 'the stored reply was free');
    const renamed = await postJson(checker.app, '/v1/identity-check', { documents: [{ ...body.documents[0], filename: 'other.pdf' }] });
    assert.equal(renamed.headers.get('svc-cache'), null, 'a name the reply shows is part of the key');
    const fresh = await postJson(checker.app, '/v1/identity-check?fresh=1', body);
    assert.equal(fresh.headers.get('svc-cache'), null);
    assert.equal(await unitsUsed(checker), before + 3);
  });

  it('answers the sandbox fixture, labelled and never metered', async () => {
    const before = await unitsUsed(checker);
    const reply = await postJson(checker.app, '/v1/identity-check', { documents: [] }, { 'svc-sandbox': 'true' });
    assert.equal(reply.status, 200);
    const body = (await reply.json()) as IdentityReply & { established: boolean };
    assert.equal(body.sandbox, true);
    assert.equal(body.established, true);
    assert.equal(body.documents.length, 3);
    assert.equal(await unitsUsed(checker), before);
  });
});

describe('POST /v1/check-pack', () => {
  let checker: CheckerApp;
  before(async () => (checker = await checkerApp()));
  after(() => checker.close());

  const schemeOf = async (reply: Response) => JSON.parse(((await reply.json()) as { scheme: { name: string } }).scheme.name) as unknown;

  it('takes a scheme, or requirements repeated in the query or listed in the body, and nothing else', async () => {
    const files = [{ bytes: tinyPdf('payslip'), name: 'payslip.pdf' }];
    assert.deepEqual(await schemeOf(await postFiles(checker.app, '/v1/check-pack?scheme=income_proof', 'files', files)), { scheme: 'income_proof' });
    assert.deepEqual(await schemeOf(await postFiles(checker.app, '/v1/check-pack?requirements=payslip&requirements=bank_statement', 'files', files)), { requirements: ['payslip', 'bank_statement'] });
    const slots = [{ key: 'income', accepts: ['payslip', 'bank_statement'], optional: false }, 'drivers_licence'];
    assert.deepEqual(await schemeOf(await postJson(checker.app, '/v1/check-pack', { documents: [{ bytes_b64: base64(tinyPdf()) }], requirements: slots })), { requirements: slots });
    const neither = await postFiles(checker.app, '/v1/check-pack', 'files', files);
    assert.equal(neither.status, 400);
    assert.match(((await neither.json()) as { detail: string }).detail, /^Give either scheme or requirements \(not both, not neither\)\. Schemes: income_proof, lending_prequal, rental_application;/);
    const unknownType = await postFiles(checker.app, '/v1/check-pack?requirements=horoscope', 'files', files);
    assert.equal(unknownType.status, 400);
    assert.match(((await unknownType.json()) as { detail: string }).detail, /^requirements\.0: "horoscope" is not a document type this checker knows/);
    const unknown = await postFiles(checker.app, '/v1/check-pack?scheme=mortgage', 'files', files);
    assert.equal(unknown.status, 400);
  });

  it('reads .docx and text documents, and refuses a 13th document', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    zip.file('word/document.xml', '<w:document/>');
    const docx = await zip.generateAsync({ type: 'uint8array' });
    const reply = await postFiles(checker.app, '/v1/check-pack?scheme=income_proof', 'files', [{ bytes: docx, name: 'letter.zip' }, { bytes: new TextEncoder().encode('Employment letter'), name: 'letter.bin' }]);
    assert.equal(reply.status, 200);
    const body = (await reply.json()) as { documents: { filename: string; classified_type: string }[] };
    assert.deepEqual(body.documents.map((document) => document.classified_type), ['docx', 'text']);
    const thirteen = Array.from({ length: 13 }, (_, index) => ({ bytes: tinyPdf(String(index)), name: `${index}.pdf` }));
    const tooMany = await postFiles(checker.app, '/v1/check-pack?scheme=income_proof', 'files', thirteen);
    assert.equal(tooMany.status, 400);
    assert.equal(((await tooMany.json()) as { detail: string }).detail, '13 documents were sent; pack checks read at most 12 documents in one request.');
  });
});

describe('page-1 classifications kept per document (real identity and pack analyses)', () => {
  let checker: CheckerApp;
  before(async () => (checker = await checkerApp({ real: ['identity_check', 'check_pack'] })));
  after(() => checker.close());

  /** The documents the analysis read, from the stages of a streamed reply. */
  const streamed = async (reply: Response) => {
    const blocks = (await reply.text()).split('\n\n').filter((block) => block.trim() !== '');
    const events = blocks.map((block) => ({ event: /^event: ?(.*)$/m.exec(block)![1]!, data: JSON.parse(/^data: ?(.*)$/m.exec(block)![1]!) as { stage?: string } }));
    const reads = [...new Set(events.flatMap((event) => (event.data.stage?.startsWith('reading document') ? [event.data.stage] : [])))];
    return { reads, result: events.at(-1)!.data as unknown as { documents: { filename: string; classified_type: string }[] } };
  };
  const keptClassifications = async () => (await checker.state.get<{ kept: number }>("SELECT COUNT(*) AS kept FROM checker_results WHERE checker = 'page1'"))!.kept;
  const passport: DocumentClassification = { type: 'australian_passport', confidence: 1, cues: ['"PASSPORT"'], shows: ['N', 'S'], expires: null, issued: null, issuerDigest: null, transactionLines: 0, pensionCard: false, zone: null };

  it('a document sent again in another request is not read again; fresh=1 reads everything again, to the same result', async () => {
    const [payslip, statement] = [await standInPdf('payslip'), await standInPdf('bank_statement')];
    const first = await streamed(await postFiles(checker.app, '/v1/check-pack?scheme=income_proof&stream=1', 'files', [file(payslip)]));
    assert.deepEqual(first.reads, ['reading document 1 of 1']);
    assert.equal(await keptClassifications(), 1);
    const second = await streamed(await postFiles(checker.app, '/v1/check-pack?scheme=rental_application&stream=1', 'files', [file(payslip), file(statement)]));
    assert.deepEqual(second.reads, ['reading document 2 of 2'], 'only the new document was read');
    assert.equal(await keptClassifications(), 2);
    assert.deepEqual(second.result.documents.map((document) => document.classified_type), ['payslip', 'bank_statement']);
    // fresh=1 uses no kept classification: one saying passport is not followed, and is replaced by the real one.
    await firstPageStore(createContentCache(checker.state)).keep(payslip.sha256, passport, new Date('2026-06-01T00:00:00Z'));
    const fresh = await streamed(await postFiles(checker.app, '/v1/check-pack?scheme=rental_application&stream=1&fresh=1', 'files', [file(payslip), file(statement)]));
    assert.deepEqual(fresh.result, second.result);
    assert.equal((await firstPageStore(createContentCache(checker.state)).known([payslip.sha256])).get(payslip.sha256)?.type, 'payslip');
  });

  it('an identity check takes the kept classification, and one kept by another classification version is not used', async () => {
    const licence = await standInPdf('drivers_licence');
    const utility = await standInPdf('utility_bill');
    // Kept classifications that say passport: a reply that follows one shows the document was not read again.
    await firstPageStore(createContentCache(checker.state)).keep(licence.sha256, passport, new Date('2026-06-01T00:00:00Z'));
    await firstPageStore(createContentCache(checker.state), 'an earlier classification version').keep(utility.sha256, passport, new Date('2026-06-01T00:00:00Z'));
    const reply = await postFiles(checker.app, '/v1/identity-check', 'files', [file(licence), file(utility)]);
    assert.equal(reply.status, 200);
    const body = (await reply.json()) as IdentityReply;
    assert.deepEqual(body.documents.map((document) => document.classified_type), ['australian_passport', 'utility_bill']);
  });
});

describe('what an identity check leaves in the state store', () => {
  let directory: string;
  let checker: CheckerApp;
  before(async () => {
    directory = mkdtempSync(join(tmpdir(), 'identity-state-'));
    checker = await checkerApp({ real: ['identity_check'], state: await openStateDb(await testStateLocation(directory)) });
  });
  after(async () => {
    await checker.close();
    await checker.state.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps each document\'s classification but none of its page text, in the database file or its write-ahead log', { skip: SQLITE_ONLY }, async () => {
    const [passport, bill] = [await standInPdf('australian_passport'), await standInPdf('utility_bill')];
    const reply = await postFiles(checker.app, '/v1/identity-check', 'files', [file(passport), file(bill)]);
    assert.equal(reply.status, 200);
    assert.deepEqual(((await reply.json()) as IdentityReply).documents.map((document) => document.classified_type), ['australian_passport', 'utility_bill']);
    const storePath = join(directory, 'state', 'state.sqlite');
    const stored = Buffer.concat([storePath, `${storePath}-wal`].map((path) => (existsSync(path) ? readFileSync(path) : Buffer.alloc(0))));
    // The reply (which names the file) is in the store, so the search reaches what was written.
    assert.ok(stored.includes('australian_passport.pdf'));
    // The passport's number, the holder's name and date of birth, and the bill's first line (its issuer).
    for (const pageText of ['PA1234567', 'SAMPLEWOOD', 'JORDAN ALEX', '14/03/1988', 'Brightwave']) assert.equal(stored.includes(pageText), false, `${pageText} is in the state store`);
    assert.equal((await firstPageStore(createContentCache(checker.state)).known([passport.sha256])).get(passport.sha256)?.type, 'australian_passport');
  });
});

describe('page-1 classifications of a failed analysis', () => {
  let checker: CheckerApp;
  before(async () => (checker = await checkerApp({ analyses: { identity_check: 'readThenFail' } })));
  after(() => checker.close());

  it('are kept although the analysis then failed, so a retry does not read those documents again', async () => {
    const bytes = tinyPdf('read then fail');
    const reply = await postJson(checker.app, '/v1/identity-check', { documents: [{ bytes_b64: base64(bytes), filename: 'a.pdf' }] });
    assert.equal(reply.status, 422);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    assert.deepEqual(await firstPageStore(createContentCache(checker.state)).known([sha256]), new Map([[sha256, classifyPage(null, { isImage: false, largestImageShare: 0 })]]));
  });
});

describe('documents the engine could not read (real identity and pack analyses)', () => {
  let checker: CheckerApp;
  before(async () => (checker = await checkerApp({ real: ['identity_check', 'check_pack'] })));
  after(() => checker.close());

  it('when every document failed, the honest result is given but nothing is counted or stored; one read document makes the call count', async () => {
    // A PNG declaring 30000 × 30000 pixels and a PDF whose page tree leads back to itself: neither can be read.
    const unreadable = [{ bytes: hugePng(30_000), name: 'huge.png' }, { bytes: pageTreeLoopPdf(), name: 'loop.pdf' }];
    for (const path of ['/v1/identity-check', '/v1/check-pack?scheme=income_proof']) {
      for (const attempt of [1, 2]) {
        const reply = await postFiles(checker.app, path, 'files', unreadable);
        assert.equal(reply.status, 200, path);
        assert.equal(reply.headers.get('svc-cache'), null, `${path}: a failure is not stored, so attempt ${attempt} runs again`);
        assert.match(await reply.text(), /could not be read: /, path);
        assert.equal(await unitsUsed(checker), 0, `${path}, attempt ${attempt}: engine failures do not count`);
      }
    }
    const read = await postFiles(checker.app, '/v1/identity-check', 'files', [...unreadable, file(await standInPdf('utility_bill'))]);
    assert.equal(read.status, 200);
    assert.equal(await unitsUsed(checker), 1, 'a document that was read makes it a result');
  });
});

import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openStateDb } from '../data/state/db.ts';
import { base64, checkerApp, postFiles, postJson, tinyPdf, type CheckerApp } from './helpers/checker-app.ts';
import { tempDir } from './helpers/temp-dir.ts';
import { testStateLocation, SQLITE_ONLY } from './helpers/state.ts';

const unitsUsed = async (checker: CheckerApp) => (await checker.state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;
const detailOf = async (reply: Response) => ((await reply.json()) as { detail: string }).detail;
/** The test extraction echoes the options it was given in `document_type`. */
const optionsSeen = async (reply: Response) => {
  const body = (await reply.json()) as { document_type?: string; detail?: string };
  assert.ok(body.document_type, JSON.stringify(body));
  return JSON.parse(body.document_type) as Record<string, unknown>;
};

describe('POST /v1/extract', () => {
  let checker: CheckerApp;
  before(async () => (checker = await checkerApp()));
  after(() => checker.close());

  it('takes a multipart file with the parameters and options flat in the query', async () => {
    const reply = await postFiles(checker.app, '/v1/extract?template=payslip&fields=ABN&fields=Total&max_pages=50&tables=true&flag_below=0.7&chunks.strategy=by_title', 'file', [{ bytes: tinyPdf('payslip'), name: 'p.pdf' }]);
    assert.equal(reply.status, 200);
    assert.deepEqual(await optionsSeen(reply), {
      fields: [{ name: 'ABN', type: 'text', hint: null }, { name: 'Total', type: 'text', hint: null }],
      template: 'payslip',
      max_pages: 10,
      render_scale: 2,
      options: { tables: true, chunks: { strategy: 'by_title' }, flag_below: 0.7 },
    });
  });

  it('takes a JSON body with the document and the parameters, options as an object', async () => {
    const reply = await postJson(checker.app, '/v1/extract?stream=0', {
      bytes_b64: base64(tinyPdf('json')),
      filename: 'a.pdf',
      fields: [{ name: 'gst', type: 'amount', question: 'How much GST?' }],
      country: 'au',
      options: { grounding: true, split: false },
    });
    assert.equal(reply.status, 200);
    assert.deepEqual(await optionsSeen(reply), { fields: [{ name: 'gst', type: 'amount', hint: 'How much GST?' }], country: 'AU', max_pages: 10, render_scale: 2, options: { grounding: true } });
  });

  it('answers 400 naming an unknown or unavailable option in either form, and parameters split between body and query', async () => {
    const file = [{ bytes: tinyPdf('x'), name: 'x.pdf' }];
    const unknownFlat = await postFiles(checker.app, '/v1/extract?ocr=true', 'file', file);
    assert.equal(unknownFlat.status, 400);
    assert.match(await detailOf(unknownFlat), /^Unknown query parameter ocr: extract takes fields, template/);
    const unknownJson = await postJson(checker.app, '/v1/extract', { bytes_b64: base64(tinyPdf('x')), options: { ocr: true } });
    assert.equal(unknownJson.status, 400);
    assert.match(await detailOf(unknownJson), /"ocr" is not an extract option/);
    const vlm = await postFiles(checker.app, '/v1/extract?tables.source=vlm', 'file', file);
    assert.equal(vlm.status, 400);
    assert.match(await detailOf(vlm), /^Unsupported extract option: tables with source vlm is not available \(no vision model is configured on this server\)/);
    const split = await postJson(checker.app, '/v1/extract?template=payslip', { bytes_b64: base64(tinyPdf('x')) });
    assert.equal(split.status, 400);
    assert.equal(await detailOf(split), 'With a JSON body give the extraction parameters in the body, not the query (template).');
    assert.equal((await postJson(checker.app, '/v1/extract', { bytes_b64: base64(tinyPdf('x')), template: 'horoscope' })).status, 422);
  });

  it('reads .docx, text and HTML as well as PDF and images; refuses other types naming them', async () => {
    const html = await postJson(checker.app, '/v1/extract', { bytes_b64: base64(new TextEncoder().encode('<html><body>Total $5</body></html>')) });
    assert.equal(html.status, 200);
    const gif = await postJson(checker.app, '/v1/extract', { bytes_b64: base64(new TextEncoder().encode('GIF89a\u0001\u0000\u0001\u0000')), filename: 'scan.png' });
    assert.equal(gif.status, 400);
    assert.equal(await detailOf(gif), 'The document (scan.png): received a GIF image; extractions accept PDF, PNG, JPEG, WebP, BMP, TIFF, Word (.docx), plain text or HTML. The type is judged from the content, not the file name.');
  });

  it('GET /v1/extract/capabilities answers every option, free and without a key', async () => {
    const before = await unitsUsed(checker);
    const reply = await checker.app.request('/v1/extract/capabilities');
    assert.equal(reply.status, 200);
    const body = (await reply.json()) as { options: { option: string; available: boolean }[] };
    assert.deepEqual(body.options.map((entry) => entry.option), ['tables', 'grounding', 'classify', 'redact', 'layout', 'links', 'figures', 'chunks', 'split', 'flag_below']);
    assert.equal(await unitsUsed(checker), before);
  });
});

describe('extract (the real analysis) keeps no bytes of the document', () => {
  let checker: CheckerApp;
  let dataDir: string;
  let scratch: string;
  const marker = `MARKER${Math.random().toString(16).slice(2)}XYZ`;
  const document = tinyPdf(marker);
  const tmpBefore = process.env['TMPDIR'];

  before(async () => {
    dataDir = await tempDir('extract-no-bytes-');
    // The temp folder every library in the server and its threads (started after this) would write to.
    scratch = await tempDir('extract-no-bytes-tmp-');
    process.env['TMPDIR'] = scratch;
    checker = await checkerApp({ state: await openStateDb(await testStateLocation(dataDir)), real: ['extract_document'] });
  });
  after(async () => {
    await checker.close();
    if (tmpBefore === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = tmpBefore;
  });

  it('writes no file, and puts nothing of the document in the state store or the logs: only the result by its hash', { skip: SQLITE_ONLY }, async () => {
    const startedAt = Date.now();
    const written: string[] = [];
    const capture = (stream: NodeJS.WriteStream) => {
      const original = stream.write.bind(stream);
      stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        written.push(String(chunk));
        return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write;
      return () => (stream.write = original as typeof stream.write);
    };
    const restore = [capture(process.stdout), capture(process.stderr)];
    try {
      assert.equal((await postFiles(checker.app, '/v1/extract', 'file', [{ bytes: document, name: 'secret.pdf' }])).status, 200);
      const streamed = await postJson(checker.app, '/v1/extract?stream=1', { bytes_b64: base64(document), filename: 'secret.pdf', fields: ['total'] });
      assert.match(await streamed.text(), /event: result/);
      assert.equal((await postJson(checker.app, '/v1/extract', { bytes_b64: base64(document), filename: 'secret.pdf', fields: ['total'] })).headers.get('svc-cache'), 'hit');
    } finally {
      for (const undo of restore) undo();
    }
    await checker.state.run('PRAGMA wal_checkpoint(TRUNCATE)');
    const encoded = Buffer.from(document).toString('base64');
    const traces = [marker, encoded.slice(0, 40), encoded.slice(-40)];
    for (const file of await filesUnder(dataDir)) {
      const content = (await readFile(file)).toString('latin1');
      for (const trace of traces) assert.equal(content.includes(trace), false, `${file} holds part of the document`);
    }
    assert.deepEqual((await checker.state.all<{ checker: string }>('SELECT checker FROM checker_results')).map((row) => row.checker), ['extract_document', 'extract_document']);
    for (const line of written) for (const trace of traces) assert.equal(line.includes(trace), false, 'a log line holds part of the document');
    assert.equal(tmpdir(), scratch);
    assert.deepEqual(await filesUnder(scratch), [], 'nothing was written to the temp folder');
    const newInCheckout = [];
    for (const file of await filesUnder(process.cwd(), 0)) if ((await stat(file)).mtimeMs >= startedAt) newInCheckout.push(file);
    assert.deepEqual(newInCheckout, [], 'nothing was written to the working folder');
  });
});

/** Every file under `folder`, `depth` folders deep at most. */
async function filesUnder(folder: string, depth = 5): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
    const path = join(folder, entry.name);
    if (entry.isFile()) files.push(path);
    else if (entry.isDirectory() && depth > 0) files.push(...(await filesUnder(path, depth - 1)));
  }
  return files;
}

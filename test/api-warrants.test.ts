import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import JSZip from 'jszip';
import { INSPECTION_VERSION } from '../api/checkers/warrants/version.ts';
import { WARRANT_LIMITATIONS } from '../api/checkers/warrants/settle.ts';
import { base64, checkerApp, postFiles, postJson, PUBLIC_URL, tinyPdf, type CheckerApp } from './helpers/checker-app.ts';
import { simplePdf, textLines } from './helpers/pdf-files.ts';

interface Bundle {
  warrant_id: string;
  sha256: string;
  risk_band: string;
  filename: string | null;
  size_bytes: number;
  engine_version: string;
  inspection_version: string;
  permalink: string;
  report_pdf: string;
  limitations: string;
  summary: { headline: string };
  signals: { code: string; found: string }[];
  sandbox?: boolean;
}

const unitsUsed = async (checker: CheckerApp) => (await checker.state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;
const detailOf = async (reply: Response) => ((await reply.json()) as { detail: string }).detail;
const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('warrants', () => {
  let checker: CheckerApp;
  before(async () => (checker = await checkerApp({ heartbeatMs: 100 })));
  after(() => checker.close());

  const invoice = tinyPdf('invoice 42');
  const id = `warrant_${sha256Of(invoice).slice(0, 16)}`;

  it('inspects an uploaded file into a stored warrant named after its SHA-256', async () => {
    const reply = await postFiles(checker.app, '/v1/warrants', 'file', [{ bytes: invoice, name: 'invoice.pdf' }]);
    assert.equal(reply.status, 200);
    const bundle = (await reply.json()) as Bundle;
    assert.equal(bundle.warrant_id, id);
    assert.equal(bundle.sha256, sha256Of(invoice));
    assert.equal(bundle.filename, 'invoice.pdf');
    assert.equal(bundle.size_bytes, invoice.byteLength);
    assert.equal(bundle.engine_version, INSPECTION_VERSION);
    assert.equal(bundle.permalink, `${PUBLIC_URL}/v1/warrants/${id}`);
    assert.equal(bundle.report_pdf, `${PUBLIC_URL}/v1/warrants/${id}/report.pdf`);
    assert.equal(bundle.limitations, WARRANT_LIMITATIONS);
    assert.deepEqual(bundle.signals.map((signal) => signal.found), [`${invoice.byteLength} bytes`]);
    assert.equal(await unitsUsed(checker), 1);
  });

  it('answers the same bytes again from the stored warrant, free, and inspects again with fresh=1', async () => {
    const again = await postJson(checker.app, '/v1/warrants', { bytes_b64: base64(invoice), filename: 'renamed.pdf' });
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('svc-cache'), 'hit');
    assert.equal(((await again.json()) as Bundle).filename, 'invoice.pdf', 'the stored warrant, as first made');
    assert.equal(await unitsUsed(checker), 1);
    const fresh = await postJson(checker.app, '/v1/warrants?fresh=1', { bytes_b64: base64(invoice), filename: 'renamed.pdf' });
    assert.equal(fresh.headers.get('svc-cache'), null);
    assert.equal(((await fresh.json()) as Bundle).filename, 'renamed.pdf');
    assert.equal(await unitsUsed(checker), 2);
    assert.equal(((await (await checker.app.request(`/v1/warrants/${id}`)).json()) as Bundle).filename, 'renamed.pdf', 'fresh=1 replaced the stored bundle');
  });

  it('refuses URL intake with 501, and empty, malformed, or unreadable-type documents with 400 naming them', async () => {
    const url = await postJson(checker.app, '/v1/warrants', { url: 'https://example.com/invoice.pdf' });
    assert.equal(url.status, 501);
    assert.equal(await detailOf(url), 'warrants do not read documents from a URL; upload the file (multipart field `file`) or send its bytes as bytes_b64.');
    const zip = new JSZip();
    zip.file('invoice.pdf', invoice);
    const cases: [Promise<Response> | Response, string | RegExp][] = [
      [postFiles(checker.app, '/v1/warrants', 'file', [{ bytes: await zip.generateAsync({ type: 'uint8array' }), name: 'invoice.pdf' }]),
        'The document (invoice.pdf): received a ZIP archive; warrants accept PDF, PNG, JPEG, WebP, BMP or TIFF. The type is judged from the content, not the file name.'],
      [postJson(checker.app, '/v1/warrants', { bytes_b64: base64(new TextEncoder().encode('<!doctype html><p>invoice</p>')), filename: 'invoice.pdf' }),
        'The document (invoice.pdf): received an HTML page; warrants accept PDF, PNG, JPEG, WebP, BMP or TIFF. The type is judged from the content, not the file name.'],
      [postJson(checker.app, '/v1/warrants', { bytes_b64: '' }), /^The document: bytes_b64 is empty/],
      [postJson(checker.app, '/v1/warrants', { bytes_b64: 'JVBERi0$' }), /^The document: bytes_b64 is not base64: character 8 is "\$"/],
      [postJson(checker.app, '/v1/warrants', {}), /^No document was sent; upload it in the multipart field `file`, or send JSON `\{bytes_b64, filename\}`\.$/],
      [checker.app.request('/v1/warrants', { method: 'POST' }), /^No document was sent/],
    ];
    for (const [pending, detail] of cases) {
      const reply = await pending;
      assert.equal(reply.status, 400, String(detail));
      const text = await detailOf(reply);
      if (typeof detail === 'string') assert.equal(text, detail);
      else assert.match(text, detail);
    }
    assert.equal(await unitsUsed(checker), 2);
  });

  it('says by SHA-256 whether a warrant is stored, refusing anything but 64 lowercase hex', async () => {
    const known = await checker.app.request(`/v1/warrants/check?sha256=${sha256Of(invoice)}`);
    assert.deepEqual(await known.json(), { cached: true, warrant_id: id, permalink: `${PUBLIC_URL}/v1/warrants/${id}` });
    assert.deepEqual(await (await checker.app.request(`/v1/warrants/check?sha256=${'0'.repeat(64)}`)).json(), { cached: false });
    for (const bad of [sha256Of(invoice).toUpperCase(), 'abc', '']) {
      const reply = await checker.app.request(`/v1/warrants/check?sha256=${bad}`);
      assert.equal(reply.status, 400, bad);
      assert.match(await detailOf(reply), /sha256/);
    }
    assert.equal((await checker.app.request('/v1/warrants/check')).status, 400);
  });

  it('serves a stored warrant as JSON, Markdown and a PDF scorecard; a malformed id is 400 and an unknown one 404', async () => {
    const stored = (await (await checker.app.request(`/v1/warrants/${id}`)).json()) as Bundle;
    assert.equal(stored.warrant_id, id);
    const markdown = await checker.app.request(`/v1/warrants/${id}?format=md`);
    assert.equal(markdown.headers.get('content-type'), 'text/markdown; charset=utf-8');
    assert.match(await markdown.text(), new RegExp(`^# Forensic warrant ${id}\\n`));
    const pdf = await checker.app.request(`/v1/warrants/${id}/report.pdf`);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    assert.equal(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString('latin1'), '%PDF-');
    for (const path of ['/v1/warrants/warrant_XYZ', '/v1/warrants/warrant_0123/report.pdf', '/v1/warrants/abc/feedback']) {
      const reply = await checker.app.request(path, path.endsWith('feedback') ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"verdict":"up"}' } : {});
      assert.equal(reply.status, 400, path);
      assert.match(await detailOf(reply), /is not a warrant id/);
    }
    for (const path of ['/v1/warrants/warrant_0000000000000000', '/v1/warrants/warrant_0000000000000000/report.pdf']) {
      const reply = await checker.app.request(path);
      assert.equal(reply.status, 404, path);
      assert.match(await detailOf(reply), /^No warrant has the id warrant_0000000000000000/);
    }
    assert.equal((await checker.app.request(`/v1/warrants/${id}?format=html`)).status, 400);
  });

  it('stores feedback on a warrant; an unknown verdict is 422 and an unknown warrant 404', async () => {
    const reply = await postJson(checker.app, `/v1/warrants/${id}/feedback`, { verdict: 'down', note: 'The edit was a signature.' });
    assert.equal(reply.status, 201);
    const feedback = (await reply.json()) as { feedback_id: string; verdict: string; note: string };
    assert.deepEqual([feedback.verdict, feedback.note], ['down', 'The edit was a signature.']);
    assert.deepEqual((await checker.state.all<object>('SELECT warrant_id, verdict, note FROM warrant_feedback')).map((row) => ({ ...row })), [{ warrant_id: id, verdict: 'down', note: 'The edit was a signature.' }]);
    assert.equal((await postJson(checker.app, `/v1/warrants/${id}/feedback`, { verdict: 'meh' })).status, 422);
    assert.equal((await postJson(checker.app, '/v1/warrants/warrant_0000000000000000/feedback', { verdict: 'up' })).status, 404);
  });

  it('streams received, inspecting with the engine\'s stages, then the warrant', async () => {
    const reply = await postJson(checker.app, '/v1/warrants?stream=1', { bytes_b64: base64(tinyPdf('streamed')), filename: 's.pdf' });
    const text = await reply.text();
    const events = [...text.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((match) => ({ event: match[1]!, data: JSON.parse(match[2]!) as Record<string, unknown> }));
    assert.equal(events[0]!.event, 'received');
    assert.equal(events.at(-1)!.event, 'result');
    assert.deepEqual(new Set(events.slice(1, -1).map((entry) => entry.event)), new Set(['inspecting']));
    assert.deepEqual(events.filter((entry) => entry.event === 'inspecting').map((entry) => entry.data['stage']).filter((stage, index, all) => stage !== all[index - 1]).slice(-2), ['structure', 'metadata']);
    assert.equal((events.at(-1)!.data as unknown as Bundle).filename, 's.pdf');
  });

  it('answers the sandbox with a fixed warrant, labelled and free', async () => {
    const before = await unitsUsed(checker);
    const reply = await checker.app.request('/v1/warrants?sandbox=true', { method: 'POST' });
    const bundle = (await reply.json()) as Bundle;
    assert.equal(bundle.sandbox, true);
    assert.equal(bundle.risk_band, 'medium');
    assert.equal(reply.headers.get('svc-sandbox'), 'true');
    assert.equal(await unitsUsed(checker), before);
  });

  it('/health reports the inspection engine as engine_version', async () => {
    assert.equal(((await (await checker.app.request('/health')).json()) as { engine_version: string }).engine_version, INSPECTION_VERSION);
  });
});

describe('warrants when the engine stops', () => {
  let checker: CheckerApp;
  const timeoutMs = 1_000;
  before(async () => (checker = await checkerApp({ analyses: { inspect_document: 'hang' }, pool: { timeoutMs } })));
  after(() => checker.close());

  it('answers a hang with an error warrant saying why, uncounted, kept but not reused', async () => {
    const bytes = tinyPdf('hangs');
    const started = performance.now();
    const reply = await postJson(checker.app, '/v1/warrants', { bytes_b64: base64(bytes) });
    // The pool's time limit and the worker's replacement, not the hang: a few times the limit at most.
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 5 * timeoutMs, `${Math.round(elapsed)} ms against a ${timeoutMs} ms limit`);
    assert.equal(reply.status, 200);
    assert.equal(reply.headers.get('svc-engine'), 'failed');
    const bundle = (await reply.json()) as Bundle;
    assert.equal(bundle.risk_band, 'error');
    assert.equal(bundle.summary.headline, 'The inspection could not finish: The analysis did not finish within 1 seconds, and was stopped.');
    assert.equal(await unitsUsed(checker), 0);
    assert.equal((await checker.app.request(`/v1/warrants/${bundle.warrant_id}`)).status, 200);
    assert.deepEqual(await (await checker.app.request(`/v1/warrants/check?sha256=${sha256Of(bytes)}`)).json(), { cached: false });
  });
});

describe('warrants with the real engine', () => {
  let checker: CheckerApp;
  before(async () => (checker = await checkerApp({ real: ['inspect_document'] })));
  after(() => checker.close());

  it('inspects a PDF in a thread and returns a warrant that matches the schema', async () => {
    const pdf = simplePdf({ pages: [textLines(['Tax invoice 42', 'Total $110.00'])] });
    const reply = await postFiles(checker.app, '/v1/warrants', 'file', [{ bytes: pdf, name: 'invoice.pdf' }]);
    assert.equal(reply.status, 200);
    const bundle = (await reply.json()) as Bundle;
    assert.equal(bundle.inspection_version, INSPECTION_VERSION);
    assert.ok(['low', 'medium', 'high', 'insufficient'].includes(bundle.risk_band), bundle.risk_band);
    assert.equal(reply.headers.get('svc-engine'), null);
  });
});

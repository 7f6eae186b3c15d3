import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { aiTextEstimate, type AiTextEstimate } from '../api/checkers/ai-text/result.ts';
import { AI_TEXT_MODEL } from '../api/checkers/ai-text/shipped-model.ts';
import { base64, checkerApp, postFiles, postJson, tinyPdf, type CheckerApp } from './helpers/checker-app.ts';
import { simplePdf, textLines } from './helpers/pdf-files.ts';

// Invented prose of 179 words: a council report paragraph, written for these tests.
const REPORT = [
  'The council received four tenders for the northern depot works by the closing date in March.',
  'Two bidders had built similar depots for neighbouring shires, and one of them offered to start in winter, which the works team liked.',
  'The cheapest bid left out the drainage upgrade that the geotechnical report asked for.',
  'We asked each bidder to explain how they would keep the existing yard open while the new sheds went up, because the road crews need it every morning.',
  'Their answers differed a lot.',
  'One proposed night work; another wanted the yard closed for six weeks, which nobody here could accept.',
  'After the site visits the panel scored the bids against price, experience, programme and safety, weighting price at forty per cent.',
  'The recommended bidder came second on price but first on everything else, and its referees spoke well of how it handled a flood delay last year.',
  'Councillors will see the full scoring sheet at the June meeting; the officers recommend awarding the contract subject to a final check of insurance certificates and the bank guarantee.',
].join(' ');

const unitsUsed = async (checker: CheckerApp) => (await checker.state.get<{ used: number | null }>('SELECT SUM(used) AS used FROM usage_weeks'))?.used ?? 0;

/** Text wrapped at about 80 characters, as a PDF's lines are. */
function wrapped(text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line.length + word.length > 80) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

describe('POST /v1/detect-ai-text', () => {
  let checker: CheckerApp;
  before(async () => {
    checker = await checkerApp();
  });
  after(() => checker.close());

  it('answers JSON text with an estimate that quotes the measured figures, and counts one unit', async () => {
    const reply = await postJson(checker.app, '/v1/detect-ai-text', { text: REPORT });
    assert.equal(reply.status, 200);
    const estimate = aiTextEstimate.parse(await reply.json());
    assert.equal(estimate.applicable, true);
    assert.equal(estimate.abstention_reason, null);
    assert.ok(estimate.probability !== null && estimate.lean !== null);
    assert.ok(estimate.limitations.includes(`AUROC ${Number(AI_TEXT_MODEL.test.auroc.toFixed(3))};`), estimate.limitations);
    assert.ok(estimate.limitations.includes(`${Number((AI_TEXT_MODEL.test.false_positive_rate_human * 100).toFixed(1))}% of the human passages`), estimate.limitations);
    assert.equal(estimate.word_count, 179);
    assert.equal(await unitsUsed(checker), 1);
  });

  it('reads a PDF with a text layer: the same prose, wrapped into lines, gets the same estimate', async () => {
    const before = await unitsUsed(checker);
    const pdf = simplePdf({ pages: [textLines(wrapped(REPORT))] });
    const fromPdf = (await (await postJson(checker.app, '/v1/detect-ai-text', { bytes_b64: base64(pdf), filename: 'report.pdf' })).json()) as AiTextEstimate;
    const fromText = (await (await postJson(checker.app, '/v1/detect-ai-text', { text: REPORT })).json()) as AiTextEstimate;
    assert.equal(fromPdf.word_count, fromText.word_count);
    assert.equal(fromPdf.probability, fromText.probability);
    // The PDF is new bytes (counted); the text was estimated by the first test (answered from the store, free).
    assert.equal(await unitsUsed(checker), before + 1);
  });

  it('answers the same text again from the stored estimate, free, and estimates again with fresh=1', async () => {
    const text = `${REPORT} The minutes were confirmed without change.`;
    const first = await postJson(checker.app, '/v1/detect-ai-text', { text });
    assert.equal(first.headers.get('Svc-Cache'), null);
    const counted = await unitsUsed(checker);
    const again = await postJson(checker.app, '/v1/detect-ai-text', { text });
    assert.equal(again.headers.get('Svc-Cache'), 'hit');
    assert.deepEqual(await again.json(), await first.json());
    assert.equal(await unitsUsed(checker), counted);
    const fresh = await postJson(checker.app, '/v1/detect-ai-text?fresh=1', { text });
    assert.equal(fresh.status, 200);
    assert.equal(fresh.headers.get('Svc-Cache'), null);
    assert.equal(await unitsUsed(checker), counted + 1);
  });

  it('abstains on a scan (a PDF page without a text layer) and on a short text, and counts neither', async () => {
    const before = await unitsUsed(checker);
    const scan = (await (await postFiles(checker.app, '/v1/detect-ai-text', 'file', [{ bytes: tinyPdf('scan'), name: 'scan.pdf' }])).json()) as AiTextEstimate;
    assert.deepEqual([scan.applicable, scan.abstention_reason, scan.probability, scan.lean], [false, 'scanned', null, null]);
    assert.match(scan.reasoning, /^Abstained: The document is a scan/);
    const short = (await (await postJson(checker.app, '/v1/detect-ai-text', { text: 'Thanks for the quote; we will reply next week.' })).json()) as AiTextEstimate;
    assert.deepEqual([short.applicable, short.abstention_reason], [false, 'too_short']);
    assert.match(short.limitations, /never a verdict/);
    assert.equal(await unitsUsed(checker), before);
  });

  it('takes a multipart text file', async () => {
    const reply = await postFiles(checker.app, '/v1/detect-ai-text', 'file', [{ bytes: new TextEncoder().encode(REPORT), name: 'report.txt' }]);
    assert.equal(((await reply.json()) as AiTextEstimate).word_count, 179);
  });

  it('streams received, working, then the result with ?stream=1', async () => {
    const reply = await postJson(checker.app, '/v1/detect-ai-text?stream=1&fresh=1', { text: REPORT });
    const events = [...(await reply.text()).matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    assert.equal(events[0], 'received');
    assert.ok(events.includes('working'));
    assert.equal(events.at(-1), 'result');
    // A stored estimate streams at once: received (cached) then the result.
    const stored = await (await postJson(checker.app, '/v1/detect-ai-text?stream=1', { text: REPORT })).text();
    assert.deepEqual([...stored.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]), ['received', 'result']);
    assert.match(stored, /"cached":true/);
  });

  it('answers the sandbox fixture free, labelled sandbox', async () => {
    const before = await unitsUsed(checker);
    const reply = (await (await postJson(checker.app, '/v1/detect-ai-text', { sandbox: true })).json()) as AiTextEstimate & { sandbox: boolean };
    assert.equal(reply.sandbox, true);
    assert.equal(reply.lean, 'ai');
    aiTextEstimate.parse(reply);
    assert.equal(await unitsUsed(checker), before);
  });

  it('refuses an image and a body with two documents with a {detail} a person can act on', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const image = await postJson(checker.app, '/v1/detect-ai-text', { bytes_b64: base64(png), filename: 'page.png' });
    assert.equal(image.status, 400);
    assert.match(((await image.json()) as { detail: string }).detail, /PNG/);
    const both = await postJson(checker.app, '/v1/detect-ai-text', { text: REPORT, url: 'https://example.org/report.pdf' });
    assert.equal(both.status, 400);
    assert.match(((await both.json()) as { detail: string }).detail, /both text and url/);
  });
});

describe('MCP tool detect_ai_text', () => {
  let checker: CheckerApp;
  let server: Server;
  let client: Client;
  before(async () => {
    checker = await checkerApp();
    server = await new Promise<Server>((resolve) => {
      const listening = serve({ fetch: checker.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening as Server));
    });
    client = new Client({ name: 'mcp-ai-text-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
  });
  after(async () => {
    await client.close();
    await new Promise((resolve) => server.close(resolve));
    await checker.close();
  });

  it('is listed with text and document arguments, and answers the route\'s estimate, counted once', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === 'detect_ai_text');
    assert.deepEqual(Object.keys(tool?.inputSchema.properties ?? {}).sort(), ['bytes_b64', 'filename', 'fresh', 'sandbox', 'text', 'url']);
    const result = (await client.callTool({ name: 'detect_ai_text', arguments: { text: REPORT } })) as CallToolResult;
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const direct = await (await postJson(checker.app, '/v1/detect-ai-text?fresh=1', { text: REPORT })).json();
    assert.deepEqual(result.structuredContent, direct);
    assert.equal(await unitsUsed(checker), 2);
  });
});

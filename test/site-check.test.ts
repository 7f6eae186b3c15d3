// The "Check a document" page's pieces outside the browser: the request each checker is sent, the event
// stream read from a reply, and the result view of every checker's reply (the sandbox replies, which have the
// routes' real shapes).
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { startServer } from '../api/server.ts';
import { companySandboxReply } from '../api/checkers/companies/sandbox.ts';
import { adverseMediaSandboxReply } from '../api/checkers/adverse-media/sandbox.ts';
import { aiTextSandboxReply } from '../api/checkers/ai-text/sandbox.ts';
import { extractSandboxReply } from '../api/checkers/extract/sandbox.ts';
import { identitySandboxReply } from '../api/checkers/identity/sandbox.ts';
import { overlapSandboxReply } from '../api/checkers/overlap/sandbox.ts';
import { packSandboxReply } from '../api/checkers/pack/sandbox.ts';
import { referencesSandboxReply } from '../api/checkers/references/sandbox.ts';
import { warrantSandboxReply } from '../api/checkers/warrants/sandbox.ts';
import { resultView } from '../site/lib/check-results.ts';
import { checkerById, CHECKERS, MAX_FILE_BYTES, requestFor, submissionProblem } from '../site/lib/checkers.ts';
import { eventParser, readEvents } from '../site/lib/event-stream.ts';
import { simplePdf, textLines } from './helpers/pdf-files.ts';
import { makeDataDir } from './helpers/seed-release.ts';
import { rawWords } from './helpers/plain-words.ts';
import { testDatabaseUrlFor } from './helpers/state.ts';

const checker = (id: string) => checkerById(id)!;
const file = (name: string) => new File(['%PDF-1.4'], name, { type: 'application/pdf' });

describe('requestFor', () => {
  it('uploads one file as `file`, streaming', () => {
    const { url, init } = requestFor(checker('warrant'), { input: 'file', files: [file('a.pdf')], value: '', option: '' });
    assert.equal(url, '/v1/warrants?stream=1');
    const form = init.body as FormData;
    assert.deepEqual([form.getAll('file').map((part) => (part as File).name), form.has('files')], [['a.pdf'], false]);
  });

  it('uploads a set of files as repeated `files` with the scheme as a form field', () => {
    const { url, init } = requestFor(checker('identity'), { input: 'file', files: [file('a.pdf'), file('b.pdf')], value: '', option: 'austrac_safe_harbour' });
    assert.equal(url, '/v1/identity-check?stream=1');
    const form = init.body as FormData;
    assert.deepEqual(form.getAll('files').map((part) => (part as File).name), ['a.pdf', 'b.pdf']);
    assert.equal(form.get('scheme'), 'austrac_safe_harbour');
  });

  it("puts extract's template in the query with an upload and in the body with a URL", () => {
    assert.equal(requestFor(checker('extract'), { input: 'file', files: [file('i.pdf')], value: '', option: 'tax_invoice' }).url, '/v1/extract?stream=1&template=tax_invoice');
    const byUrl = requestFor(checker('extract'), { input: 'url', files: [], value: 'https://example.org/i.pdf', option: 'tax_invoice' });
    assert.equal(byUrl.url, '/v1/extract?stream=1');
    assert.deepEqual(JSON.parse(byUrl.init.body as string), { url: 'https://example.org/i.pdf', template: 'tax_invoice' });
  });

  it('sends text, a name with its given details, and a company query as JSON; company resolution does not stream', () => {
    const text = requestFor(checker('ai-text'), { input: 'text', files: [], value: 'Some prose.', option: '' });
    assert.deepEqual([text.url, JSON.parse(text.init.body as string), (text.init.headers as Record<string, string>)['content-type']], ['/v1/detect-ai-text?stream=1', { text: 'Some prose.' }, 'application/json']);
    const name = requestFor(checker('adverse-media'), { input: 'name', files: [], value: 'Jane Citizen', option: '', details: { dob: '1970-01-02', country: '' } });
    assert.deepEqual(JSON.parse(name.init.body as string), { name: 'Jane Citizen', dob: '1970-01-02' });
    const company = requestFor(checker('company'), { input: 'query', files: [], value: 'ABN 53 004 085 616', option: '' });
    assert.deepEqual([company.url, JSON.parse(company.init.body as string)], ['/v1/companies/resolve', { query: 'ABN 53 004 085 616' }]);
  });
});

describe('submissionProblem', () => {
  it('says what is missing or too much before anything is sent', () => {
    const empty = { files: [], value: '', option: '' };
    assert.equal(submissionProblem(checker('warrant'), { ...empty, input: 'file' }), 'Choose or drop a file to check.');
    assert.equal(submissionProblem(checker('ai-text'), { ...empty, input: 'text' }), 'Paste the text to check.');
    assert.equal(submissionProblem(checker('warrant'), { ...empty, input: 'file', files: [file('a.pdf'), file('b.pdf')] }), 'This checker reads at most one file at once; you chose 2.');
    const large = new File([new Uint8Array(MAX_FILE_BYTES + 1)], 'scan.pdf');
    assert.equal(submissionProblem(checker('pack'), { ...empty, input: 'file', files: [file('a.pdf'), large] }), 'scan.pdf is larger than 25 MB, the largest file a checker reads.');
    assert.equal(submissionProblem(checker('identity'), { ...empty, input: 'file', files: [file('a.pdf'), file('b.pdf')] }), null);
    assert.equal(submissionProblem(checker('company'), { ...empty, input: 'query', value: 'Acme' }), null);
  });
});

describe('every checker takes the request the page sends', () => {
  it('answers each with a result the page can show (no refusal, no error event)', async () => {
    const dataDir = await makeDataDir();
    const server = await startServer({ dataDir, databaseUrl: await testDatabaseUrlFor(dataDir), port: 0, log: () => {}, burst: { capacity: 100 } });
    try {
      // slice(): a File takes ArrayBuffer-backed bytes.
      const pdf = new File([simplePdf({ pages: [textLines(['Tax invoice 1042', 'Total $1,980.00'])] }).slice()], 'invoice.pdf', { type: 'application/pdf' });
      const answered: string[] = [];
      for (const offered of CHECKERS) {
        // Each checker's first input: a file for most, a person's name for adverse media, a number for company resolution.
        const input = offered.inputs[0]!;
        const { url, init } = requestFor(offered, { input, files: [pdf], value: input === 'name' ? 'Jane Citizen' : 'ABN 53 004 085 616', option: offered.option?.choices.at(-1)?.value ?? '' });
        const reply = await fetch(`${server.url}${url}`, init);
        assert.equal(reply.status, 200, `${offered.id}: ${await reply.clone().text()}`);
        let last: { event: string; data: string } | undefined;
        if (offered.streams) {
          assert.equal(reply.headers.get('content-type'), 'text/event-stream', offered.id);
          for await (const event of readEvents(reply.body!)) last = event;
        } else last = { event: 'result', data: await reply.text() };
        assert.equal(last?.event, 'result', `${offered.id}: ${last?.data}`);
        answered.push(`${offered.id}: ${resultView(offered.id, JSON.parse(last.data)).headline.length > 0}`);
      }
      assert.deepEqual(answered, CHECKERS.map((offered) => `${offered.id}: true`));
    } finally {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the event stream', () => {
  it('joins events split across chunks and CRLF line ends, and ignores comments', () => {
    const parser = eventParser();
    assert.deepEqual(parser.push('event: received\r\ndata: {"cached":'), []);
    assert.deepEqual(parser.push('false}\r\n\r\n: keep-alive\n\nevent: working\ndata: {"stage":"text"}\n\n'), [
      { event: 'received', data: '{"cached":false}' },
      { event: 'working', data: '{"stage":"text"}' },
    ]);
  });

  it('reads every event of a reply body, the last one without its closing blank line', async () => {
    const body = new Response('event: received\ndata: {}\n\nevent: result\ndata: {"ok":true}').body!;
    const events = [];
    for await (const event of readEvents(body)) events.push(event);
    assert.deepEqual(events, [{ event: 'received', data: '{}' }, { event: 'result', data: '{"ok":true}' }]);
  });
});

describe('resultView', () => {
  const replies: Record<string, unknown> = {
    warrant: warrantSandboxReply('https://svc.example'),
    references: referencesSandboxReply('https://svc.example'),
    'ai-text': aiTextSandboxReply(),
    overlap: overlapSandboxReply(),
    extract: extractSandboxReply(),
    identity: identitySandboxReply(),
    pack: packSandboxReply(),
    'adverse-media': adverseMediaSandboxReply(),
    company: companySandboxReply(),
  };

  it('has a view for every checker the page offers, with a headline and the limitations', () => {
    assert.deepEqual(CHECKERS.map((c) => c.id).sort(), Object.keys(replies).sort());
    for (const [id, reply] of Object.entries(replies)) {
      const view = resultView(id, reply);
      assert.ok(view.headline.length > 0, id);
      assert.equal(view.limitations, (reply as { limitations: string }).limitations, id);
      for (const section of view.sections) for (const item of section.items) assert.ok(item.title.length > 0, `${id}: ${section.title}`);
    }
  });

  it('shows each warrant signal with what was found and where, and links the reports', () => {
    const reply = warrantSandboxReply('https://svc.example');
    const view = resultView('warrant', reply);
    const signals = view.sections.find((section) => section.title === 'Signals')!;
    assert.equal(signals.items.length, reply.signals.length);
    assert.equal(signals.items[0]!.lines[0], reply.signals[0]!.found);
    assert.match(signals.items[0]!.lines[1] ?? '', /^Where: /);
    assert.deepEqual(view.links, [
      { label: 'Permalink (JSON)', href: reply.permalink },
      { label: 'Report (Markdown)', href: `${reply.permalink}?format=md` },
      { label: 'Report (PDF)', href: reply.report_pdf },
    ]);
  });

  it("links a fact-check's permalink and gives each reference its status and evidence", () => {
    const reply = referencesSandboxReply('https://svc.example');
    const view = resultView('references', reply);
    assert.deepEqual(view.links, [{ label: 'Permalink', href: reply.permalink }]);
    const references = view.sections.find((section) => section.title === 'References')!;
    assert.deepEqual(references.items[0]!.lines, reply.references[0]!.evidence);
    assert.ok(references.items[0]!.title.startsWith(reply.references[0]!.as_written));
  });
});

describe('the check page\'s results in plain words', () => {
  it('no internal name, code, program value or raw date in any checker\'s rendered result', () => {
    const replies: [string, unknown][] = [
      ['warrant', warrantSandboxReply('https://x.test')], ['references', referencesSandboxReply('https://x.test')], ['ai-text', aiTextSandboxReply()],
      ['overlap', overlapSandboxReply()], ['extract', extractSandboxReply()], ['identity', identitySandboxReply()], ['pack', packSandboxReply()],
      ['adverse-media', adverseMediaSandboxReply()], ['company', companySandboxReply()],
    ];
    const found: string[] = [];
    for (const [id, reply] of replies) {
      const view = resultView(id, reply);
      const texts = [view.headline, ...view.facts.flat(), ...view.sections.flatMap((section) => [section.title, section.empty, ...section.items.flatMap((item) => [item.title, ...item.lines])]), view.limitations ?? ''];
      for (const text of texts) for (const word of rawWords(text)) found.push(`${id}: ${word} in “${text.slice(0, 120)}”`);
    }
    assert.deepEqual(found, []);
  });
});

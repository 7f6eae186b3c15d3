import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import JSZip from 'jszip';
import { responseDocx, responseMarkdown, type ResponseDocument } from './export.ts';

const response: ResponseDocument = {
  title: 'Road resurfacing panel 2026',
  company: 'Harbour Civil Pty Ltd',
  closing: 'Closes 2026-10-06 (Australia/Sydney)',
  items: [
    {
      requirement: { requirement_id: 'req_1', ref: '4.2', text: 'The Respondent must hold public liability insurance of $20 million.', kind: 'clause', mandatory: true, state: 'open', weight: null },
      draft: {
        requirement_id: 'req_1', text: 'We hold public liability cover of $20 million [1].', origin: 'model', note: '', model: 'm', edited_by: null, updated_at: '2026-06-10T00:00:00Z',
        citations: [{ n: 1, source: 'library', document: 'Certificate of currency.pdf', page: 2, doc_id: 'doc_1', excerpt: 'Public Liability $20,000,000', score: 3 }],
      },
    },
    { requirement: { requirement_id: 'req_2', ref: null, text: 'Describe your traffic management experience.', kind: 'criterion', mandatory: false, state: 'open', weight: 30 }, draft: null },
  ],
};

describe('the response export', () => {
  it('writes a .docx holding every requirement, its draft and its citations', async () => {
    const zip = await JSZip.loadAsync(await responseDocx(response));
    const xml = await zip.file('word/document.xml')!.async('string');
    const text = [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((match) => match[1]).join('\n');
    for (const expected of [
      'Road resurfacing panel 2026',
      '4.2. Clause (mandatory)',
      'The Respondent must hold public liability insurance of $20 million.',
      'We hold public liability cover of $20 million [1].',
      '[1] Certificate of currency.pdf, page 2',
      '2. Evaluation criterion, weight 30%',
      'No draft yet: recompute the plan to draft it, or write it.',
    ]) {
      assert.ok(text.includes(expected), `document.xml holds "${expected}"`);
    }
  });

  it('writes the same as Markdown', () => {
    assert.equal(
      responseMarkdown(response),
      [
        '# Road resurfacing panel 2026', '', 'Response by Harbour Civil Pty Ltd. Closes 2026-10-06 (Australia/Sydney).', '',
        '## 4.2. Clause (mandatory)', '', '> The Respondent must hold public liability insurance of $20 million.', '', '### Response', '',
        'We hold public liability cover of $20 million [1].', '', '### Sources', '', '- [1] Certificate of currency.pdf, page 2', '',
        '## 2. Evaluation criterion, weight 30%', '', '> Describe your traffic management experience.', '', '### Response', '',
        'No draft yet: recompute the plan to draft it, or write it.', '',
      ].join('\n'),
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rankPassages, splitPassages, type Passage } from './retrieval.ts';

const library = (text: string, document: string, page: number): Passage => ({ text, citation: { source: 'library', document, page, doc_id: `doc_${page}` } });

describe('retrieval of passages for a draft', () => {
  it('cuts a page into paragraphs, joining short ones and cutting long ones at sentence ends', () => {
    const long = Array.from({ length: 30 }, (_, index) => `Sentence number ${index} about traffic control on arterial roads.`).join(' ');
    const passages = splitPassages(`Heading\n\nShort line one.\n\n${long}`);
    assert.equal(passages[0]!.startsWith('Heading Short line one.'), true);
    assert.ok(passages.every((passage) => passage.length <= 1000), 'no passage far over the size');
    assert.equal(passages.join(' ').replace(/\s+/g, ' '), `Heading Short line one. ${long}`);
  });

  it('ranks the passage about the requirement first, by its subject words rather than tender boilerplate', () => {
    const passages = [
      library('The tenderer must provide all details requested in this form and must submit the response on time.', 'Boilerplate.pdf', 1),
      library('We maintain public liability insurance of $20 million with Harbour Mutual, certificate of currency attached.', 'Insurance schedule.pdf', 3),
      library('Our crews completed 40 km of asphalt resurfacing for three councils in 2025.', 'Capability statement.pdf', 2),
    ];
    const ranked = rankPassages(passages, 'The tenderer must provide evidence of public liability insurance of at least $20 million.');
    assert.equal(ranked[0]!.citation.document, 'Insurance schedule.pdf');
    assert.equal(ranked[0]!.citation.page, 3);
    assert.ok(!ranked.some((passage) => passage.citation.document === 'Capability statement.pdf'), 'a passage sharing no subject word is not retrieved');
  });

  it('retrieves nothing when no passage shares a subject word', () => {
    assert.deepEqual(rankPassages([library('Asphalt resurfacing for councils.', 'Capability.pdf', 1)], 'ISO 27001 information security certification'), []);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { entryTitle, findReferences } from './find.ts';

const summary = (text: string) =>
  findReferences(text).map((reference) => ({ kind: reference.kind, url: reference.url, doi: reference.doi, title: reference.claimedTitle, year: reference.year, author: reference.firstAuthor, marker: reference.marker }));

describe('findReferences', () => {
  it('finds URLs in prose without their closing punctuation or brackets, and www. addresses', () => {
    const text = 'See the plan (https://www.council.example/roads/plan). Data: https://data.stats.example/a_(b)/c, and www.abs.gov.au/stats.';
    assert.deepEqual(findReferences(text).map((reference) => [reference.kind, reference.url, reference.text]), [
      ['url', 'https://www.council.example/roads/plan', 'https://www.council.example/roads/plan'],
      ['url', 'https://data.stats.example/a_(b)/c', 'https://data.stats.example/a_(b)/c'],
      ['url', 'http://www.abs.gov.au/stats', 'www.abs.gov.au/stats'],
    ]);
    assert.equal(findReferences(text)[0]!.sentence, 'See the plan (https://www.council.example/roads/plan).');
  });

  it('reads doi.org links and bare DOIs as DOIs, in lower case, and reports a DOI written twice once, where the reference list gives it', () => {
    const text = 'As shown (doi:10.1038/NATURE14539), deep nets work.\n\nReferences\n[1] LeCun, Y., Bengio, Y. & Hinton, G. (2015). Deep learning. Nature, 521, 436-444. https://doi.org/10.1038/nature14539\n';
    assert.deepEqual(summary(text), [{ kind: 'doi', url: 'https://doi.org/10.1038/nature14539', doi: '10.1038/nature14539', title: 'Deep learning', year: 2015, author: 'LeCun', marker: '1' }]);
  });

  it('reads the claimed title in APA, IEEE, Harvard and Vancouver entries, and keeps citations without a link', () => {
    const text = [
      'References',
      '[1] Smith, J. (2020). Procurement reform in Australia. Journal of Public Policy, 12(3), 45-67.',
      '[2] Y. LeCun, Y. Bengio and G. Hinton, "Deep learning," Nature, vol. 521, pp. 436-444, 2015.',
      "[3] Australian National Audit Office 2019, Audit of contract management, ANAO, Canberra.",
      '[4] Brown AB, Green CD. Contract outcomes in local government. Aust J Public Adm. 2018;77(2):210-25.',
      '',
      'Appendix A',
      'Site photographs taken in 2021.',
    ].join('\n');
    assert.deepEqual(summary(text), [
      { kind: 'citation', url: null, doi: null, title: 'Procurement reform in Australia', year: 2020, author: 'Smith', marker: '1' },
      { kind: 'citation', url: null, doi: null, title: 'Deep learning', year: 2015, author: 'LeCun', marker: '2' },
      { kind: 'citation', url: null, doi: null, title: 'Audit of contract management', year: 2019, author: 'Australian', marker: '3' },
      { kind: 'citation', url: null, doi: null, title: 'Contract outcomes in local government', year: 2018, author: 'Brown', marker: '4' },
    ]);
  });

  it('joins a wrapped entry and finds author-led entries outside a heading', () => {
    const text = 'Jones, P. (2015). Asset management for local\ngovernment: a practical guide. Public Works Review, 7(1), 33-41.\n\nThe end.';
    assert.deepEqual(summary(text).map((reference) => reference.title), ['Asset management for local government: a practical guide']);
  });

  it('finds nothing in prose that cites nothing', () => {
    assert.deepEqual(findReferences('The council met in 2021 to discuss 14 projects. Smith, the mayor, spoke first.'), []);
  });

  it('entryTitle reads a single-quoted Harvard title and gives null when no style fits', () => {
    assert.equal(entryTitle("Smith, J. 2020, 'Tendering in practice', Journal of Procurement, vol. 3."), 'Tendering in practice');
    assert.equal(entryTitle('Annual report'), null);
  });
  it('reports neither the page\'s own site outside its lists, nor its own DOI, nor sample addresses or social profiles', () => {
    const text = [
      'Our earlier story (https://news.example/2019/older) and the agency report (https://agency.gov.au/report) say so.',
      'Follow us (https://twitter.com/newsdesk) or see the post (https://twitter.com/newsdesk/status/123). Try https://example.com/path.',
      'This article: https://doi.org/10.5555/self.1 and the study https://doi.org/10.5555/other.2.',
    ].join('\n');
    const found = findReferences(text, { site: 'news.example', selfDois: ['10.5555/SELF.1'] }).map((reference) => reference.url);
    assert.deepEqual(found, ['https://agency.gov.au/report', 'https://twitter.com/newsdesk/status/123', 'https://doi.org/10.5555/other.2']);
  });

  it('keeps every labelled item of a reference list, with or without a year, and reads mnemonic labels', () => {
    const text = ['17.1.  Normative References', '', '[WORDS]  Bradner, S., "Key words for use in RFCs to Indicate Requirement Levels", BCP 14, RFC 2119, March 1997.', '[22] Sometimes known as alert spam, as they are rarely read.', '[note 1] U.S. Const. art. II.'].join('\n');
    assert.deepEqual(
      findReferences(text).map((reference) => [reference.kind, reference.marker, reference.claimedTitle]),
      [
        ['citation', 'WORDS', 'Key words for use in RFCs to Indicate Requirement Levels'],
        ['citation', '22', null],
        ['citation', 'note 1', null],
      ],
    );
  });

  it('splits a hanging-indent list at the column edge, across a page break and its page number, and mends words broken at line ends', () => {
    const text = [
      'References',
      'Nader Akoury, Shufan Wang, and Mohit Iyyer. 2020. STO-',
      '  RIUM: A dataset for story generation. In Proceed-',
      '  ings of EMNLP, pages 6470–6484.',
      'Manik Bhandari and Graham Neubig. 2020. Re-',
      '',
      '1660',
      '  evaluating evaluation in text summarization. In',
      '  Proceedings of EMNLP.',
      'Asli Celikyilmaz and Jianfeng Gao. 2020. Evaluation',
      '  of text generation: A survey. arXiv preprint.',
    ].join('\n');
    assert.deepEqual(
      findReferences(text).map((reference) => [reference.firstAuthor, reference.year, reference.claimedTitle]),
      [
        ['Nader', 2020, 'STO-RIUM: A dataset for story generation'],
        ['Manik', 2020, 'Reevaluating evaluation in text summarization'],
        ['Asli', 2020, 'Evaluation of text generation: A survey'],
      ],
    );
  });

  it('ends a numbered list at a section heading after a page break, so the appendix is not read as entries', () => {
    const text = ['References', '[1] Smith, J. (2020). Procurement reform. Journal of Policy, 12(3), 45-67.', '', '15', 'A Dataset release', 'The data were collected in 2021 by the authors. Funding came from 2019 grants.'].join('\n');
    assert.deepEqual(findReferences(text).map((reference) => reference.marker), ['1']);
  });
});

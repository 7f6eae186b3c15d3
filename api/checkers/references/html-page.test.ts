import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findReferences } from './find.ts';
import { readReferencePage } from './html-page.ts';
import { isOnSite, isProfileOrSampleAddress, registrableDomain } from './site.ts';

const page = (head: string, body: string) => `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
const prose = 'The council reported that road maintenance spending rose again this year, according to the annual figures, which were published in full.';

describe('readReferencePage', () => {
  it('drops menus, footers and the page furniture, and keeps addresses only of article links to other sites', () => {
    const html = page(
      '<link rel="canonical" href="https://news.example/2024/roads">',
      `<nav><a href="https://news.example/">Home</a><a href="https://other.example/partner">Partner</a></nav>
       <article><p>${prose} See <a href="https://agency.gov.au/report">the agency report</a> and <a href="/2023/roads">last year's story</a>
       and <a href="https://www.news.example/tags/roads">more roads news</a>.</p><p>${prose}</p></article>
       <div class="share-bar"><a href="https://twitter.com/intent/tweet?u=x">Tweet</a></div>
       <footer><a href="https://news.example/about">About</a></footer>`,
    );
    const read = readReferencePage(html);
    assert.equal(read.url, 'https://news.example/2024/roads');
    assert.equal(read.site, 'news.example');
    assert.match(read.text, /the agency report \(https:\/\/agency\.gov\.au\/report\)/);
    assert.doesNotMatch(read.text, /Home|Partner|Tweet|About|tags\/roads/);
    assert.deepEqual(findReferences(read.text, { site: read.site }).map((reference) => reference.url), ['https://agency.gov.au/report']);
  });

  it('writes a reference list after the text as labelled entries with their external links, and its inline markers as [label]', () => {
    const html = page(
      '<link rel="canonical" href="https://en.wikipedia.org/wiki/Roads">',
      `<div id="content"><p>${prose}<sup id="cite_ref-1" class="reference"><a href="#cite_note-1">[1]</a></sup> Crews sealed 12 km.<sup id="cite_ref-b" class="reference"><a href="#cite_note-b">[a]</a></sup></p><p>${prose}</p>
       <h2>References</h2><ol class="references">
         <li id="cite_note-1"><span class="mw-cite-backlink"><a href="#cite_ref-1">^</a></span> Smith, J. (2020). <a href="https://roads.example/report">Road report</a>. <a href="/wiki/ISSN">ISSN</a> 1234-5678.</li>
         <li id="cite_note-b"><a href="#cite_ref-b">^</a> An explanatory note without a source.</li>
       </ol>
       <h2>External links</h2><ul><li><a href="https://roads.example/">Official site</a></li></ul></div>`,
    );
    const read = readReferencePage(html);
    assert.match(read.text, /figures, which were published in full\.\[1\] Crews sealed 12 km\.\[a\]/);
    assert.match(read.text, /\nReferences\n\[1\] Smith, J\. \(2020\)\. Road report\. ISSN 1234-5678\. \(https:\/\/roads\.example\/report\)\n\[a\] An explanatory note without a source\.$/);
    assert.doesNotMatch(read.text, /Official site|\^/);
    const found = findReferences(read.text, { site: read.site });
    assert.deepEqual(found.map((reference) => [reference.kind, reference.marker, reference.citedAt.length]), [['url', '1', 1], ['citation', 'a', 1]]);
  });

  it("numbers sidenotes in order, takes a page's DOI from its metadata, and reads a footnote's own number from its marker", () => {
    const html = page(
      '<meta name="citation_doi" content="10.5555/Self.1"><meta property="og:url" content="https://journal.example/doi/10.5555/self.1">',
      `<main><p>${prose}<span class="footnote-container"><label class="footnote-number"></label><span class="footnote">A sidenote citing <a href="https://archive.example/x">an archive</a>.</span></span> More text follows here to make a sentence.</p>
       <p>${prose} It took 5 seconds.<sup><a data-type="noteref" id="n23-marker" href="#n23">23</a></sup></p>
       <div class="footnotes" data-type="footnotes"><p data-type="footnote" id="n23"><sup><a href="#n23-marker">23</a></sup>Latency is measured at the 99th percentile.</p></div></main>`,
    );
    const read = readReferencePage(html);
    assert.deepEqual(read.self_dois, ['10.5555/self.1']);
    assert.match(read.text, /\[1\] More text follows/);
    assert.match(read.text, /It took 5 seconds\.\[23\]/);
    assert.match(read.text, /\[23\] Latency is measured at the 99th percentile\./);
    assert.match(read.text, /\[1\] A sidenote citing an archive\. \(https:\/\/archive\.example\/x\)/);
  });

  it('takes a bold "More information:" block as one reference and a headed list of publications as entries', () => {
    const html = page(
      '<link rel="canonical" href="https://science.example/news/tool">',
      `<div class="article"><p>${prose}</p><p>${prose}</p>
       <div class="more"><strong>More information:</strong> M. Niekus et al. A tar-backed tool, PNAS (2019). <a href="http://dx.doi.org/10.1073/pnas.1907828116">DOI: 10.1073/pnas.1907828116</a></div></div>
       <span class="ct-header3">Publications:</span><div><div>Anker P, Stroun M. Circulating tumour DNA. Cancer Metastasis Rev. 1999;18(1):65-73.</div><div>Sorenson GD. Soluble DNA in blood. Cancer Epidemiol. 1994;3(1):67-71.</div></div>`,
    );
    const found = findReferences(readReferencePage(html).text, { site: 'science.example' });
    assert.deepEqual(
      found.map((reference) => [reference.kind, reference.doi ?? reference.text.slice(0, 16)]),
      [['doi', '10.1073/pnas.1907828116'], ['citation', '[1] Anker P, Str'], ['citation', '[2] Sorenson GD.']],
    );
  });
});

describe('site', () => {
  it('reads registrable domains under generic second levels, and counts an organisation\'s national domains as one site', () => {
    assert.equal(registrableDomain('news.bbc.co.uk'), 'bbc.co.uk');
    assert.equal(registrableDomain('www.health.gov.au'), 'health.gov.au');
    assert.equal(registrableDomain('en.wikipedia.org'), 'wikipedia.org');
    assert.equal(registrableDomain('lvdmaaten.github.io'), 'lvdmaaten.github.io');
    assert.equal(isOnSite('http://www.bbc.co.uk/news/1', 'bbc.com'), true);
    assert.equal(isOnSite('https://de.wikipedia.org/wiki/X', 'wikipedia.org'), true);
    assert.equal(isOnSite('https://github.com/x/y', 'lvdmaaten.github.io'), false);
  });

  it('tells sample addresses and profiles from posts', () => {
    for (const address of ['https://example.com/path', 'https://storage.example.org/', 'https://twitter.com/LiveScience', 'http://www.facebook.com/#!/livescience', 'https://plus.google.com/1/posts', 'https://github.com/obsidianmd', 'https://www.youtube.com/channel/abc', 'https://www.linkedin.com/in/someone']) {
      assert.equal(isProfileOrSampleAddress(address), true, address);
    }
    for (const address of ['https://twitter.com/x/status/1', 'https://github.com/mozilla/pdf.js', 'https://www.youtube.com/watch?v=RJVL80Gg3lA', 'https://medium.com/@a/post-1', 'https://agency.gov.au/report']) {
      assert.equal(isProfileOrSampleAddress(address), false, address);
    }
  });
});

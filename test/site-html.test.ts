import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attr, escapeHtml, html } from '../site/lib/html.ts';

test('html escapes every value in text and in attributes, and keeps nested html as markup', () => {
  const title = `<script>alert("x")</script> & 'more'`;
  const link = html`<a href="${'/search/?q="><img src=x>&a=1'}">${title}</a>`;
  assert.equal(link.text, '<a href="/search/?q=&quot;&gt;&lt;img src=x&gt;&amp;a=1">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;more&#39;</a>');
  assert.equal(html`<p>${link}</p>`.text, `<p>${link.text}</p>`);
  assert.equal(escapeHtml('plain words'), 'plain words');
});

test('html writes lists joined, numbers as they are, and nothing for false, null or undefined', () => {
  assert.equal(html`<ul>${['a<', 'b'].map((item) => html`<li>${item}</li>`)}</ul>`.text, '<ul><li>a&lt;</li><li>b</li></ul>');
  assert.equal(html`${0}|${false}|${null}|${undefined}|${''}|${1_234}`.text, '0|||||1234');
});

test('attr writes an attribute only when it has a value', () => {
  assert.equal(html`<ol${attr('aria-label', undefined)}>`.text, '<ol>');
  assert.equal(html`<ol${attr('aria-label', 'Say "soonest"')}>`.text, '<ol aria-label="Say &quot;soonest&quot;">');
});

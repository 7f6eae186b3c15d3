// The provenance line's words (Provenance.astro): when a page's figures were computed and the sources they cover,
// chosen by the same rule as the API's search coverage (lib/coverage.ts). Written once per scope: 50,000 tender
// pages share a few dozen scopes.
import type { CoverageScope } from '../../lib/coverage.ts';
import { coverageLine, coverageSentence, listed, NAMED_INLINE } from './coverage-words.ts';
import { instant } from './format.ts';
import { html } from './html.ts';
import { pageEntry } from './site-data.ts';

const written = new Map<string, string>();

export async function provenanceHtml(computedAt: string, coverage: CoverageScope): Promise<string> {
  const key = JSON.stringify([computedAt, coverage]);
  let text = written.get(key);
  if (text === undefined) {
    const registry = await pageEntry('sources', 'sources');
    const line = coverageLine(registry.data.sources, coverage);
    const sentence = coverageSentence(line, 'from', 'from no registered source: none publishes what this page shows.');
    const many = line.read.length > NAMED_INLINE;
    text = html`Figures of <time datetime="${computedAt}">${instant(computedAt)}</time>, ${sentence} ${
      many && html`<details><summary>Which ${line.read.length} sources</summary>${listed(line.read.map((s) => s.name))}.</details>`} <a href="/sources/">About the sources</a>`.text;
    written.set(key, text);
  }
  return text;
}

// A checker's result drawn from its view (site/lib/check-results.ts): headline, facts, findings with their
// evidence, the links that keep it, its limitations.
import type { ResultView } from '../../lib/check-results.ts';
import { element } from '../../lib/dom.ts';
import { sayStatus, seconds } from './progress.ts';

const result = document.getElementById('check-result')!;

function findings(section: ResultView['sections'][number]): HTMLElement {
  const list = element('ul', undefined, 'findings');
  for (const item of section.items) {
    const entry = element('li');
    const title = element('p');
    if (item.href) {
      const link = element('a', item.title);
      link.href = item.href;
      link.rel = 'noopener noreferrer';
      title.append(link);
    } else title.append(element('strong', item.title));
    entry.append(title, ...item.lines.map((line) => element('p', line, 'meta')));
    list.append(entry);
  }
  return list;
}

function keepLinks(links: ResultView['links']): HTMLElement {
  const list = element('ul');
  for (const { label, href } of links) {
    const link = element('a', label);
    link.href = href;
    const item = element('li');
    item.append(link);
    list.append(item);
  }
  return list;
}

export function showResult(view: ResultView, elapsedMs: number): void {
  const heading = element('h2', view.headline);
  heading.id = 'result-heading';
  const parts: HTMLElement[] = [heading];
  if (view.facts.length > 0) {
    const facts = element('dl');
    for (const [label, value] of view.facts) facts.append(element('dt', label), element('dd', value));
    parts.push(facts);
  }
  for (const section of view.sections) {
    parts.push(element('h3', `${section.title} (${section.items.length})`));
    parts.push(section.items.length === 0 ? element('p', section.empty) : findings(section));
  }
  if (view.links.length > 0) parts.push(element('h3', 'Keep this result'), keepLinks(view.links));
  if (view.limitations) parts.push(element('h3', 'Limitations'), element('p', view.limitations));
  result.replaceChildren(...parts);
  result.hidden = false;
  result.tabIndex = -1;
  sayStatus(`Done in ${seconds(elapsedMs)}: ${view.headline}`);
  result.focus();
}

/** A new check: the last result taken away. */
export function clearResult(): void {
  result.hidden = true;
  result.replaceChildren();
}

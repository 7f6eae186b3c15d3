import * as cheerio from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import { visibleText } from '../../documents/plain-text.ts';
import { isOnSite, siteOfUrl } from './site.ts';

/**
 * An HTML page read as the reference checker needs it. A saved web page is mostly its site's own furniture:
 * menus, footers, share buttons, tag clouds, related stories, links to the site's other pages. None of that
 * is cited. What a page cites is (a) its reference lists (Wikipedia's `ol.references`, footnotes,
 * endnotes, bibliographies, a "References" or "Notes" section, sidenotes) with the inline markers pointing
 * at them, and (b) links written in its article prose to other sites. So:
 *
 * - the page's own address and site come from its canonical link, `og:url` or `<base>` (else the host most
 *   of its menu links go to), and its own DOI from its citation metadata;
 * - reference lists are read from the markup, each entry written `[label] text (its external links)` under
 *   a "References" line at the end of the text, where the text finder reads them as a list;
 * - an inline marker (`<a href="#cite_note-3">[3]</a>`, a superscript footnote number, a sidenote) is
 *   written `[label]`, so it is never read as a number of the sentence;
 * - navigation, page furniture and the sections that list links without citing them (See also, External
 *   links, Further reading) are dropped; of the rest, the article is the block holding most of the prose
 *   (as readability scores it), and only its links to other sites keep their addresses.
 *
 * A pure function of the HTML.
 */

export interface ReferencePage {
  text: string;
  /** The page's own address, when it says it. */
  url: string | null;
  /** Its registrable domain: links there are the site's own. */
  site: string | null;
  /** DOIs that name the page itself (its own article), in lower case. */
  self_dois: string[];
}

const REFERENCE_HEADING = /^\s*(?:\d+(?:\.\d+)*\.?\s+)?(?:references?|notes?|footnotes?|end\s?notes?|notes and references|references and notes|bibliography|works cited|literature cited|sources?|citations?|publications?|cited works|literature|références|notes et références|bibliographie|quellen|literatur|einzelnachweise|anmerkungen|fußnoten|referencias|notas|bibliografía)\s*:?\s*$/i;
/** "Notes" alone also heads a table's notes or a page's asides: it names a reference list only as a real heading (h1–h6). */
const NOTES_ONLY = /^\s*(?:\d+(?:\.\d+)*\.?\s+)?(?:notes?|anmerkungen|notas)\s*:?\s*$/i;
/** A bold label opening a block that holds one reference ("More information: Smith et al. …", phys.org and its kin). */
const INLINE_REFERENCE_LABEL = /^\s*(?:more information|journal reference|original (?:study|paper|article|research)|study|reference|source|paper)s?\s*:\s*$/i;
/** Sections that list links without citing them. */
const NOT_CITING_HEADING = /^\s*(?:\d+(?:\.\d+)*\.?\s+)?(?:see also|external links?|further reading|other links|related (?:articles|links|pages|stories|content)|weblinks|siehe auch|voir aussi|liens externes)\s*$/i;

const LIST_SELECTORS = [
  'ol.references',
  '[role=doc-endnotes]',
  '[role=doc-bibliography]',
  '[data-type=footnotes]',
  'section.footnotes',
  'div.footnotes',
  'ol.footnotes',
  'div.endnotes',
  'ol.ref-list',
  'ul.ref-list',
  'div.ref-list',
  'ul.references',
  'div.references',
  'div.notes',
  '.bibliography',
  '.citation-list',
].join(', ');
const SIDENOTE_SELECTOR = 'span.footnote, span.sidenote, aside.sidenote, span.marginnote';
/** Inside an entry: links back to the marker, COinS metadata and per-entry look-up tools are not the reference. */
const ENTRY_CLUTTER = '.mw-cite-backlink, .cite-backlink, a.footnote-backref, a.reversefootnote, [role=doc-backlink], .Z3988, .references__suffix, .reference-accessdate-tools, style, link, script';

const FURNITURE_ELEMENTS = 'nav, header, footer, aside, menu, form[role=search], #toc, .toc, #mw-toc, [role=navigation], [role=banner], [role=contentinfo], [role=search], [role=complementary], [hidden], [aria-hidden=true]';
/** Class or id words that name page furniture (compared word by word: `site-footer` is furniture, `footnotes` is not). */
const FURNITURE_WORDS = new Set([
  'nav', 'navbar', 'navigation', 'navbox', 'navlinks', 'menu', 'menubar', 'submenu', 'megamenu', 'footer', 'masthead', 'sidebar', 'breadcrumb', 'breadcrumbs',
  'share', 'sharing', 'sharebar', 'social', 'socials', 'related', 'recommended', 'comments', 'comment', 'disqus', 'cookie', 'cookies', 'consent', 'toolbar',
  'subscribe', 'subscription', 'newsletter', 'promo', 'advert', 'advertisement', 'ad', 'ads', 'sponsor', 'sponsored', 'banner', 'skip', 'catlinks', 'printfooter',
  'editsection', 'jump', 'popup', 'modal', 'login', 'signup', 'tags', 'tagcloud', 'pagination', 'pager', 'trending', 'popular', 'mostread', 'outbrain', 'taboola',
  'toc', 'noprint', 'docinfo', 'sitenotice', 'interlanguage', 'lang', 'langlinks', 'authority', 'metadata', 'hatnote', 'sistersitebox', 'portal', 'topbar', 'header', 'head',
]);
/** Boxes inside an article whose links are the subject's own addresses, not citations (a Wikipedia infobox's website). */
const NOT_CITING_BOXES = '.infobox, .vcard, table.sidebar, .ambox, .hatnote, .thumbcaption .magnify';
const DOI = /\b10\.\d{4,9}\/[^\s"'<>]+/i;

interface ListEntry {
  element: Element;
  label: string;
  /** The entry's text when it is not the element's whole text (a sidenote, a labelled block). */
  text?: string;
  /** Whether `label` is what a marker pointing at the entry shows (the document's own numbering wins). */
  labelShown?: boolean;
}

export function readReferencePage(html: string): ReferencePage {
  const $ = cheerio.load(html);
  const url = pageUrlOf($);
  const base = baseUrlOf($, url);
  const selfDois = selfDoisOf($, url);
  $('script, style, noscript, template, head, svg').remove();
  const site = url !== null ? siteOfUrl(url) : dominantOwnSite($, base);

  const resolve = (href: string): string | null => {
    try {
      const resolved = new URL(href.trim(), base ?? undefined);
      return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.href : null;
    } catch {
      return null;
    }
  };
  const isExternal = (address: string) => site === null || !isOnSite(address, site);

  const lists = referenceLists($);
  const markerIds = writeInlineMarkers($, lists);

  // Each list's entries as text, with their links to other sites; then the lists leave the page body.
  const referenceLines: string[][] = lists.map((list) =>
    list.entries.map((entry) => {
      const clone = entry.text === undefined ? $(entry.element).clone() : null;
      if (clone !== null) {
        clone.find(ENTRY_CLUTTER).remove();
        clone.find('a[href^="#"]').each((_, anchor) => {
          if (markerIds.has(decodeFragment($(anchor).attr('href')!.slice(1)))) $(anchor).remove();
        });
      }
      const links = clone === null ? [] : entryLinks($, clone, resolve, isExternal);
      const text = (entry.text ?? inlineText($, clone!)).replace(/\s+/g, ' ').trim();
      const label = entry.label;
      const body = text.replace(new RegExp(String.raw`^\[?${escapeRegExp(label)}[.)\]]?\s+`), '');
      const shownLinks = links.filter((link) => !body.includes(link));
      return `[${label}] ${body}${shownLinks.map((link) => ` (${writtenAddress(link)})`).join('')}`;
    }),
  );
  for (const list of lists) $(list.root).remove();
  dropUncitingSections($);
  removeFurniture($);

  const article = articleOf($);
  $(article)
    .find('a[href]')
    .each((_, anchor) => {
      const href = $(anchor).attr('href')!;
      if (href.startsWith('#') || $(anchor).closest(NOT_CITING_BOXES).length > 0) return;
      const address = resolve(href);
      if (address === null || !isExternal(address) || isSelf(address, url)) return;
      const shown = $(anchor).text();
      if (shown.includes(address) || shown.trim() === '') return;
      // Written as the text finder reads addresses: characters that would end it there are percent-encoded, and
      // a word running on after the link is kept apart from it.
      const next = anchor.next;
      const spacer = next?.type === 'text' && /^[\p{L}\p{N}]/u.test(next.data) ? ' ' : '';
      $(anchor).after(` (${writtenAddress(address)})${spacer}`);
    });

  const body = visibleText($, $(article));
  const references = referenceLines.filter((lines) => lines.length > 0).map((lines) => `References\n${lines.join('\n')}`);
  return { text: [body.trim(), ...references].join('\n\n'), url, site, self_dois: selfDois };
}

/**
 * Inline markers: a link to an entry, written [label]; numbered by the entry when the marker shows nothing. Gives
 * back the ids of the markers' own elements, so the entries' links back to them can be left out of their text.
 */
function writeInlineMarkers($: CheerioAPI, lists: { root: Element; entries: ListEntry[] }[]): Set<string> {
  const entryElements = new Set(lists.flatMap((list) => list.entries.map((entry) => entry.element)));
  const entryById = new Map<string, ListEntry>();
  for (const list of lists) {
    for (const entry of list.entries) {
      for (const id of idsWithin($, entry.element)) if (!entryById.has(id)) entryById.set(id, entry);
    }
  }
  const markerIds = new Set<string>();
  $('a[href^="#"]').each((_, anchor) => {
    const target = decodeFragment($(anchor).attr('href')!.slice(1));
    const entry = entryById.get(target);
    if (entry === undefined || insideAny($, anchor, entryElements)) return;
    const sup = $(anchor).closest('sup');
    for (const holder of [$(anchor), sup, $(anchor).parent()]) {
      const id = holder.attr('id');
      if (id !== undefined) markerIds.add(id);
    }
    const shown = $(anchor).text().replace(/[[\]\s]+/g, ' ').trim();
    const label = shown === '' ? entry.label : shown;
    if (shown !== '' && entry.labelShown !== true) {
      entry.label = shown;
      entry.labelShown = true;
    }
    const replaced = sup.length > 0 && sup.text().replace(/[[\]\s]/g, '') === $(anchor).text().replace(/[[\]\s]/g, '') ? sup : $(anchor);
    replaced.replaceWith(`[${label}]`);
  });
  return markerIds;
}

/** An address as the text finder reads it whole: the characters that end an address in prose percent-encoded. */
function writtenAddress(address: string): string {
  return address.replace(/['"`{}|\\^[\]<>]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function decodeFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** The page's own address: canonical link, og:url, or <base>, made absolute against each other. */
function pageUrlOf($: CheerioAPI): string | null {
  const candidates = [$('meta[property="og:url"]').attr('content'), $('meta[name="og:url"]').attr('value') ?? $('meta[name="og:url"]').attr('content'), $('base[href]').attr('href')];
  const absolute = candidates.find((candidate) => candidate !== undefined && /^https?:\/\//i.test(candidate.trim()));
  const canonical = $('link[rel~="canonical"]').attr('href');
  for (const candidate of [canonical, absolute]) {
    if (candidate === undefined) continue;
    try {
      const resolved = new URL(candidate.trim(), absolute ?? undefined);
      if (resolved.protocol === 'http:' || resolved.protocol === 'https:') return resolved.href;
    } catch {
      // not an address: try the next
    }
  }
  return null;
}

function baseUrlOf($: CheerioAPI, pageUrl: string | null): string | null {
  const base = $('base[href]').attr('href');
  if (base !== undefined) {
    try {
      return new URL(base.trim(), pageUrl ?? undefined).href;
    } catch {
      // fall through to the page's address
    }
  }
  return pageUrl;
}

/** DOIs naming the page itself: citation metadata and a DOI in its own address. */
function selfDoisOf($: CheerioAPI, pageUrl: string | null): string[] {
  const dois = new Set<string>();
  $('meta[name="citation_doi"], meta[name="dc.identifier"], meta[name="DC.identifier"], meta[name="DC.Identifier"], meta[name="prism.doi"], meta[property="citation_doi"]').each((_, meta) => {
    const found = DOI.exec($(meta).attr('content') ?? '');
    if (found) dois.add(found[0].toLowerCase());
  });
  const inUrl = pageUrl === null ? null : DOI.exec(decodeFragment(new URL(pageUrl).pathname));
  if (inUrl) dois.add(inUrl[0].toLowerCase());
  return [...dois];
}

/**
 * Without a stated address, the site the page's furniture links to: the host most links in its menus, header
 * and footer go to, or else most links outside its article (a page's own chrome points home).
 */
function dominantOwnSite($: CheerioAPI, base: string | null): string | null {
  const article = articleOf($);
  const furniture = [...$(FURNITURE_ELEMENTS).toArray(), ...$('[class], [id]').toArray().filter(isFurnitureByName)];
  const menus = $(furniture).find('a[href]').toArray();
  const outside = $('a[href]')
    .toArray()
    .filter((anchor) => !insideAny($, anchor, new Set([article])));
  return dominantSite($, menus, base) ?? dominantSite($, outside, base);
}

function dominantSite($: CheerioAPI, anchors: Element[], base: string | null): string | null {
  const counts = new Map<string, number>();
  for (const anchor of anchors) {
    let site: string | null = null;
    try {
      site = siteOfUrl(new URL($(anchor).attr('href')!, base ?? undefined).href);
    } catch {
      site = null;
    }
    if (site !== null) counts.set(site, (counts.get(site) ?? 0) + 1);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const total = ranked.reduce((sum, [, count]) => sum + count, 0);
  return ranked[0] !== undefined && ranked[0][1] >= 3 && ranked[0][1] >= total / 2 ? ranked[0][0] : null;
}

function isSelf(address: string, pageUrl: string | null): boolean {
  if (pageUrl === null) return false;
  const strip = (value: string) => value.replace(/#.*$/, '').replace(/^https?:\/\/(?:www\.)?/i, '').replace(/\/$/, '').toLowerCase();
  return strip(address) === strip(pageUrl);
}

function idsWithin($: CheerioAPI, element: Element): string[] {
  const ids = [$(element).attr('id'), ...$(element).find('[id], a[name]').map((_, inner) => $(inner).attr('id') ?? $(inner).attr('name')).get()];
  return ids.filter((id): id is string => typeof id === 'string' && id !== '');
}

function insideAny($: CheerioAPI, node: AnyNode, elements: Set<Element>): boolean {
  for (let current: AnyNode | null = node; current !== null; current = current.parent) {
    if (elements.has(current as Element)) return true;
  }
  return false;
}

/** The reference lists of the page and their entries, each entry once, outermost list first. */
function referenceLists($: CheerioAPI): { root: Element; entries: ListEntry[] }[] {
  const lists: { root: Element; entries: ListEntry[] }[] = [];
  const taken = new Set<Element>();
  const add = (root: Element, entries: ListEntry[]) => {
    const fresh = entries.filter((entry) => !insideAny($, entry.element, taken) && $(entry.element).text().trim().length >= 3);
    if (fresh.length === 0 || insideAny($, root, new Set(lists.map((list) => list.root)))) return;
    for (const entry of fresh) taken.add(entry.element);
    lists.push({ root, entries: fresh });
  };
  const inFurniture = (element: Element) => $(element).closest(FURNITURE_ELEMENTS).length > 0 || $(element).parents().toArray().some(isFurnitureByName);

  $(LIST_SELECTORS).each((_, root) => {
    if (root.type === 'tag') add(root, entriesOf($, root));
  });

  // A heading named like a reference list, and the list that follows it.
  $('h1, h2, h3, h4, h5, h6, dt, strong, b, span, p, div').each((_, heading) => {
    const shown = $(heading).text();
    if (shown.length > 80) return;
    const own = headingText($, heading);
    if (own.length > 60 || !REFERENCE_HEADING.test(own) || $(heading).find('li, p, table').length > 0) return;
    if (NOTES_ONLY.test(own) && !/^h[1-6]$/.test(heading.tagName)) return;
    if (inFurniture(heading)) return;
    const following = followingBlock($, heading);
    if (following === null) return;
    add(following, entriesOf($, following));
  });

  // A block opened by a bold "More information:" label holds one reference: the rest of the block.
  $('strong, b').each((_, label) => {
    if (!INLINE_REFERENCE_LABEL.test($(label).text()) || inFurniture(label)) return;
    const block = $(label).parent();
    const element = block.get(0);
    if (element === undefined || element.type !== 'tag') return;
    const clone = block.clone();
    clone.find('strong, b').first().remove();
    clone.children('div, p, ul, ol, table').remove();
    const text = clone.text().replace(/\s+/g, ' ').trim();
    if (text.length >= 20) add(element, [{ element, label: '1', text: `${text}${entryLinksText($, clone)}` }]);
  });

  // Sidenotes written inline beside the sentence: numbered in order, the note taken out of the sentence.
  const sidenotes = $(SIDENOTE_SELECTOR).toArray().filter((note) => !inFurniture(note));
  if (sidenotes.length > 0) {
    const entries: ListEntry[] = [];
    const holder = $('<div></div>');
    sidenotes.forEach((note, index) => {
      const label = String(index + 1);
      const element = $('<div></div>').append($(note).contents()).get(0) as Element;
      holder.append(element);
      $(note).closest('span.footnote-container').add(note).first().replaceWith(`[${label}]`);
      entries.push({ element, label });
    });
    $('body').append(holder);
    add(holder.get(0) as Element, entries);
  }

  // An asterisk note after the text ("* We have received reports …") answers an asterisk in it.
  $('p').each((_, paragraph) => {
    const text = $(paragraph).text().trim();
    if (/^[*†‡]\s*\S/.test(text) && text.length >= 30 && !inFurniture(paragraph)) add(paragraph, [{ element: paragraph, label: text.charAt(0) }]);
  });
  // In the order the page shows them.
  const order = new Map($('*').toArray().map((element, index) => [element, index]));
  return lists.sort((a, b) => (order.get(a.root) ?? 0) - (order.get(b.root) ?? 0));
}

/** The entries of a list element: its items, or the blocks it is made of. */
function entriesOf($: CheerioAPI, root: Element): ListEntry[] {
  const list = root.tagName === 'ol' || root.tagName === 'ul' ? $(root) : $(root).find('ol, ul').first();
  if (list.length > 0 && list.children('li').length > 0) {
    const start = Number(list.attr('start') ?? '1');
    return list
      .children('li')
      .toArray()
      .map((item, index) => ({ element: item, label: String((Number.isFinite(start) ? start : 1) + index) }));
  }
  const blocks = $(root).children('p, div, li, dd').toArray().filter((block) => $(block).text().trim() !== '');
  const wrapper = blocks.length === 1 && $(blocks[0]!).children('p, div').length > 1 ? $(blocks[0]!).children('p, div').toArray() : blocks;
  return wrapper.map((block, index) => {
    const numbered = /^\s*\[?(\d{1,4})[\].)]?\s/.exec($(block).text());
    const asterisk = /^\s*([*†‡])\s/.exec($(block).text());
    return { element: block, label: numbered?.[1] ?? asterisk?.[1] ?? String(index + 1) };
  });
}

/** The list after a heading: its next element sibling (or its wrapper's, for headings wrapped in a div). */
function followingBlock($: CheerioAPI, heading: Element): Element | null {
  for (let node: Element | null = heading; node !== null && node.tagName !== 'body'; node = node.parent?.type === 'tag' ? (node.parent as Element) : null) {
    const next = $(node).nextAll().filter((_, sibling) => $(sibling).text().trim() !== '').first().get(0);
    if (next !== undefined) {
      if (/^h[1-6]$/.test(next.tagName)) return null;
      if (next.tagName === 'ol' || next.tagName === 'ul' || next.tagName === 'dl' || next.tagName === 'div' || next.tagName === 'section') return next;
      return null;
    }
    if ($(node.parent!).children().length > 2) return null;
  }
  return null;
}

/** An entry's links to other sites (DOI links always: a DOI is what the entry cites). */
function entryLinks($: CheerioAPI, entry: ReturnType<CheerioAPI>, resolve: (href: string) => string | null, isExternal: (address: string) => boolean): string[] {
  const links: string[] = [];
  entry.find('a[href]').each((_, anchor) => {
    const address = resolve($(anchor).attr('href')!);
    if (address === null) return;
    const doiLink = /^https?:\/\/(?:dx\.)?doi\.org\//i.test(address);
    if ((doiLink || isExternal(address)) && !links.includes(address)) links.push(address);
  });
  return links;
}

function entryLinksText($: CheerioAPI, entry: ReturnType<CheerioAPI>): string {
  const text = entry.text();
  const links = entry
    .find('a[href^="http"]')
    .map((_, anchor) => $(anchor).attr('href')!)
    .get()
    .filter((link) => !text.includes(link));
  return links.map((link) => ` (${link})`).join('');
}

/** The text of an element as one line (blocks inside an entry are joined by a space). */
function inlineText($: CheerioAPI, element: ReturnType<CheerioAPI>): string {
  element.find('br, p, div, li').after(' ');
  return element.text();
}

/** Drops each section headed See also, External links, Further reading: the heading and what follows it up to the next heading of its rank. */
function dropUncitingSections($: CheerioAPI): void {
  $('h1, h2, h3, h4, h5, h6').each((_, heading) => {
    if (!NOT_CITING_HEADING.test(headingText($, heading))) return;
    const rank = Number(heading.tagName.slice(1));
    const wrapped = $(heading).parent().is('div.mw-heading') ? $(heading).parent() : $(heading);
    let next = wrapped.next();
    while (next.length > 0) {
      const inner = next.is('h1, h2, h3, h4, h5, h6') ? next : next.is('div.mw-heading') ? next.children('h1, h2, h3, h4, h5, h6').first() : null;
      if (inner !== null && inner.length > 0 && Number(inner.get(0)!.tagName.slice(1)) <= rank) break;
      const after = next.next();
      next.remove();
      next = after;
    }
    wrapped.remove();
  });
}

/** A heading's words without its "[edit]" link. */
function headingText($: CheerioAPI, heading: Element): string {
  const clone = $(heading).clone();
  clone.find('.mw-editsection, .editsection').remove();
  return clone.text().replace(/\[\s*edit\s*\]/gi, '').trim();
}

function isFurnitureByName(element: Element): boolean {
  const names = `${element.attribs['class'] ?? ''} ${element.attribs['id'] ?? ''}`.toLowerCase();
  if (names.trim() === '') return false;
  return names.split(/[\s_-]+/).some((word) => FURNITURE_WORDS.has(word));
}

/** Removes menus, footers, share bars, related-story boxes and the like, unless one holds most of the page's prose. */
function removeFurniture($: CheerioAPI): void {
  const prose = (node: ReturnType<CheerioAPI>) => node.find('p').text().length;
  const total = Math.max(1, prose($('body')));
  const candidates = [...$(FURNITURE_ELEMENTS).toArray(), ...$('[class], [id]').toArray().filter(isFurnitureByName)];
  for (const element of candidates) {
    if (element.parent === null || element.tagName === 'body' || element.tagName === 'html' || element.tagName === 'main' || element.tagName === 'article') continue;
    if (prose($(element)) > total * 0.3) continue;
    $(element).remove();
  }
}

/**
 * The element holding the article: paragraphs of 25 characters or more score by length and commas for their
 * parent (and half for the grandparent), discounted by the share of link text, as readability scores them;
 * the best-scoring element wins, or its parent when a sibling scores nearly as well (an article split in two).
 */
function articleOf($: CheerioAPI): Element {
  const scores = new Map<Element, number>();
  $('p, pre, td, blockquote, dd').each((_, paragraph) => {
    const text = $(paragraph).text().trim();
    if (text.length < 25) return;
    const score = 1 + (text.match(/[,،、，]/g)?.length ?? 0) + Math.min(Math.floor(text.length / 100), 3);
    const parent = paragraph.parent?.type === 'tag' ? (paragraph.parent as Element) : null;
    if (parent === null) return;
    scores.set(parent, (scores.get(parent) ?? 0) + score);
    const grandparent = parent.parent?.type === 'tag' ? (parent.parent as Element) : null;
    if (grandparent !== null) scores.set(grandparent, (scores.get(grandparent) ?? 0) + score / 2);
  });
  let best: Element | null = null;
  let bestScore = 0;
  for (const [element, score] of scores) {
    const text = $(element).text().length || 1;
    const linkText = $(element).find('a').text().length;
    const adjusted = score * (1 - Math.min(1, linkText / text));
    if (adjusted > bestScore) {
      best = element;
      bestScore = adjusted;
    }
  }
  const body = $('body').get(0) ?? ($.root().children().get(0) as Element | undefined);
  if (best === null) return body!;
  const parent = best.parent?.type === 'tag' ? (best.parent as Element) : null;
  if (parent !== null && parent.tagName !== 'body' && parent.tagName !== 'html') {
    const siblingScore = Math.max(0, ...$(parent).children().toArray().filter((child) => child !== best).map((child) => scores.get(child) ?? 0));
    if (siblingScore >= bestScore * 0.2) return parent;
  }
  return best;
}


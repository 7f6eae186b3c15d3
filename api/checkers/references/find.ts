import { isOnSite, isProfileOrSampleAddress } from './site.ts';
import { sentenceSpans, spanAt } from './text.ts';

/**
 * Finds what a document cites: web addresses, DOIs, and scholarly citations that carry neither (an entry of
 * a reference list, or a line shaped like one). Each comes with where it was written, the reference-list
 * entry it sits in, and what that entry claims (title, year, first author), so the DOI can be compared
 * with its registered title and a citation without one can be looked up. A pure function of text.
 */

export type ReferenceKind = 'url' | 'doi' | 'citation';

export interface FoundReference {
  kind: ReferenceKind;
  /** As written in the document. */
  text: string;
  /** Character offsets of `text` in the text searched. */
  start: number;
  end: number;
  /** The address to check: the URL as written (a `www.` address with `http://` added), or a DOI's `https://doi.org/` link. */
  url: string | null;
  /** The DOI in lower case (DOIs are case-insensitive), for `doi` references. */
  doi: string | null;
  /** The reference-list entry (or citation-shaped line) the reference sits in, white space folded. */
  entry: string | null;
  /** Where that entry sits in the text searched. */
  entrySpan: { start: number; end: number } | null;
  /** The entry's number as the text cites it (`3` for `[3]`, `3.` or `3)`), for finding the sentences that cite it. */
  marker: string | null;
  claimedTitle: string | null;
  year: number | null;
  /** Surname of the entry's first author, for finding author-year citations in the text. */
  firstAuthor: string | null;
  /** The running-text sentence the reference is written in, when it is not in a reference list. */
  sentence: string | null;
  /**
   * Where the text cites the reference's list entry: each inline marker naming its label (`[3]`, `[2, 3]`,
   * `[4–7]`, `[note 1]`, `[RFC2119]`) and each author–year citation of its first author and year; empty for
   * a reference outside a list.
   */
  citedAt: number[];
}

/** Crossref's recommended pattern for modern DOIs (`/^10.\d{4,9}/[-._;()/:A-Z0-9]+$/i`), unanchored; `<>` for SICIs. */
const DOI_PATTERN = /\b10\.\d{4,9}\/[-._;()/:a-z0-9<>]+/gi;
const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"'`{}|\\^[\]]+/gi;
const DOI_HOSTS = new Set(['doi.org', 'dx.doi.org', 'www.doi.org']);
const SECTION_HEADING = /^\s*(?:\d+(?:\.\d+)*\.?\s+)?(?:(?:normative|informative)\s+)?(?:references?|bibliography|works cited|literature cited|sources|citations|reference list|notes and references|endnotes|further reading)\s*:?\s*$/i;
const ENTRY_MARKER = /^\s*(?:\[(\d{1,3})\]|(\d{1,3})[.)])\s+/;
/**
 * Inside a reference section an entry may carry any short bracketed label: `[RFC2119]`, `[Hol14]`, `[note 1]`,
 * `[a]`, `[*]` (what the HTML reader writes for a footnote's own label). Such an entry needs no year: a
 * labelled item of a reference list is a reference whatever it holds.
 */
const LABELLED_ENTRY = /^\s*\[([^\][\n]{1,24})\]\s+/;
/** `Surname, A. B.` / `Surname, Given` (APA, Harvard) or `Surname AB,` / `Surname AB.` (Vancouver). */
const AUTHOR_START = /^\s*(?:[A-Z][\p{L}'’-]+(?:\s[A-Z][\p{L}'’-]+)?,\s+(?:[A-Z]\.\s?-?)+|[A-Z][\p{L}'’-]+,\s+[A-Z][\p{L}'’-]+|[A-Z][\p{L}'’-]+\s[A-Z]{1,3}[,.](?:\s|$))/u;
const YEAR = /\b(1[6-9]\d\d|20\d\d)[a-z]?\b/;
/** An organisation as author (`World Health Organization. (2021). Title.`) is a citation only with a bracketed year. */
const BRACKETED_YEAR = /\((?:1[6-9]\d\d|20\d\d)[a-z]?(?:,\s*[A-Z][a-z]+(?:\s\d{1,2})?)?\)/;

interface Entry {
  text: string;
  start: number;
  end: number;
  marker: string | null;
  /** A labelled item of a reference section (`[3] …`, `[RFC2119] …`): kept whether or not it shows a year. */
  labelled: boolean;
}

/** What is known of the document itself, so that it is not reported as citing itself. */
export interface FindOptions {
  /** The registrable domain of the page the text was read from: its links there, outside a reference list, are its own. */
  site?: string | null;
  /** DOIs naming the document itself (its citation metadata, a DOI in every page's running header). */
  selfDois?: readonly string[];
}

/**
 * Every reference in the text, in the order written. A URL or DOI written more than once is reported once:
 * where a reference list gives it (that entry says what it claims), else where it first appears. Not
 * reported: the document's own DOIs, links to its own site outside a reference list, sample addresses
 * (`example.com`) and social-network profiles, none of which cites a source.
 */
export function findReferences(text: string, options: FindOptions = {}): FoundReference[] {
  const selfDois = new Set((options.selfDois ?? []).map((doi) => doi.toLowerCase()));
  const entries = referenceEntries(text);
  const sentences = sentenceSpans(text);
  const sentenceAt = (offset: number) => spanAt(sentences, offset)?.text ?? null;
  const entryAt = (offset: number) => spanAt(entries, offset) ?? null;
  const citations = inTextCitations(text, entries);
  const candidates: { key: string; reference: FoundReference }[] = [];
  const located = (written: string, start: number) => {
    const entry = entryAt(start);
    const claims = entry === null
      ? { entry: null, entrySpan: null, marker: null, claimedTitle: null, year: null, firstAuthor: null }
      : { entry: entry.text, entrySpan: { start: entry.start, end: entry.end }, marker: entry.marker, claimedTitle: entryTitle(entry.text), year: entryYear(entry.text), firstAuthor: firstAuthor(entry.text) };
    return { text: written, start, end: start + written.length, sentence: entry === null ? sentenceAt(start) : null, citedAt: entry === null ? [] : (citations.get(entry) ?? []), ...claims };
  };

  const linkSpans: [number, number][] = [];
  for (const match of text.matchAll(URL_PATTERN)) {
    const written = trimTrailing(match[0]);
    const url = written.toLowerCase().startsWith('www.') ? `http://${written}` : written;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue;
    }
    if (!parsed.hostname.includes('.')) continue;
    linkSpans.push([match.index, match.index + written.length]);
    const doi = DOI_HOSTS.has(parsed.hostname.toLowerCase()) ? cleanDoi(safeDecode(parsed.pathname.slice(1))) : null;
    const reference: FoundReference = doi !== null
      ? { kind: 'doi', url: `https://doi.org/${doi}`, doi, ...located(written, match.index) }
      : { kind: 'url', url: parsed.href, doi: null, ...located(written, match.index) };
    candidates.push({ key: doi !== null ? `doi:${doi}` : `url:${parsed.href}`, reference });
  }
  for (const match of text.matchAll(DOI_PATTERN)) {
    if (linkSpans.some(([from, to]) => match.index >= from && match.index < to)) continue;
    const doi = cleanDoi(match[0]);
    if (doi === null) continue;
    candidates.push({ key: `doi:${doi}`, reference: { kind: 'doi', url: `https://doi.org/${doi}`, doi, ...located(match[0].slice(0, doi.length), match.index) } });
  }
  const cites = ({ reference }: { reference: FoundReference }) => {
    if (reference.doi !== null && selfDois.has(reference.doi)) return false;
    if (reference.kind !== 'url') return true;
    if (isProfileOrSampleAddress(reference.url!)) return false;
    return reference.entry !== null || options.site == null || !isOnSite(reference.url!, options.site);
  };
  const citing = candidates.filter(cites);
  candidates.length = 0;
  candidates.push(...citing);
  const entriesWithLinks = new Set(candidates.map(({ reference }) => entryAt(reference.start)).filter((entry) => entry !== null));
  for (const entry of entries) {
    if (entriesWithLinks.has(entry)) continue;
    const reference: FoundReference = { kind: 'citation', url: null, doi: null, ...located(entry.text, entry.start), end: entry.end };
    // An unlabelled line is a citation only when it claims a title and a year; a list's labelled item always is
    // (a note or a reference without a title is reported, unchecked, rather than lost).
    if (!entry.labelled && (reference.claimedTitle === null || reference.year === null)) continue;
    candidates.push({ key: `citation:${entry.text.toLowerCase()}`, reference });
  }

  const chosen = new Map<string, FoundReference>();
  for (const { key, reference } of candidates) {
    const before = chosen.get(key);
    if (before === undefined || (before.entry === null && reference.entry !== null)) chosen.set(key, reference);
  }
  return [...chosen.values()].sort((a, b) => a.start - b.start);
}

/** The most labels one bracketed range may stand for (`[1–50]`); a longer "range" is not a citation. */
const MAX_RANGE = 50;

/**
 * For each list entry, where the text outside the lists cites it: bracketed markers naming its label
 * (lists and ranges expanded), and author–year citations naming its first author's surname and its year.
 */
function inTextCitations(text: string, entries: readonly Entry[]): Map<Entry, number[]> {
  const cited = new Map<Entry, number[]>();
  const note = (entry: Entry, offset: number) => {
    const offsets = cited.get(entry);
    if (offsets === undefined) cited.set(entry, [offset]);
    else if (offsets.at(-1) !== offset) offsets.push(offset);
  };
  const byLabel = new Map<string, Entry>();
  for (const entry of entries) if (entry.marker !== null && !byLabel.has(entry.marker.toLowerCase())) byLabel.set(entry.marker.toLowerCase(), entry);
  const outsideLists = (offset: number) => spanAt(entries, offset) === undefined;
  if (byLabel.size > 0) {
    for (const match of text.matchAll(/\[([^\][\n]{1,60})\]/g)) {
      if (!outsideLists(match.index)) continue;
      for (const part of match[1]!.split(/\s*[,;]\s*/)) {
        const range = /^(\d{1,4})\s*[–-]\s*(\d{1,4})$/.exec(part);
        const labels = range !== null && Number(range[2]) > Number(range[1]) && Number(range[2]) - Number(range[1]) < MAX_RANGE
          ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, step) => String(Number(range[1]) + step))
          : [part.trim()];
        for (const label of labels) {
          const entry = byLabel.get(label.toLowerCase());
          if (entry !== undefined) note(entry, match.index);
        }
      }
    }
  }
  // Author–year citations: one pass over the text for "Surname (et al.) (year", looked up by surname and year.
  const byAuthorYear = new Map<string, Entry[]>();
  for (const entry of entries) {
    if (entry.marker !== null && /^\d+$/.test(entry.marker)) continue;
    const year = entryYear(entry.text);
    const surname = surnameOf(entry.text);
    if (year === null || surname === null) continue;
    const key = `${surname.toLowerCase()} ${year}`;
    byAuthorYear.set(key, [...(byAuthorYear.get(key) ?? []), entry]);
  }
  if (byAuthorYear.size > 0) {
    for (const match of text.matchAll(/\b(\p{Lu}[\p{L}'’-]+)(?:\s+et\s+al\.?|\s+(?:and|&)\s+\p{Lu}[\p{L}'’-]+)?,?\s*\(?(1[6-9]\d\d|20\d\d)[a-z]?\b/gu)) {
      if (!outsideLists(match.index)) continue;
      for (const entry of byAuthorYear.get(`${match[1]!.toLowerCase()} ${match[2]}`) ?? []) note(entry, match.index);
    }
  }
  return cited;
}

/** The first author's surname: `Smith` in `Smith, J.` and `Smith J,`, `Akoury` in `Nader Akoury, …`. */
function surnameOf(entry: string): string | null {
  const body = entry.replace(ENTRY_MARKER, '').replace(LABELLED_ENTRY, '').trim();
  const inverted = /^(\p{Lu}[\p{L}'’-]+)(?:,|\s\p{Lu}{1,3}[,.])/u.exec(body);
  if (inverted) return inverted[1]!;
  const given = /^\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}\.?)*\s+((?:van\s+|de\s+|von\s+)?\p{Lu}[\p{L}'’-]+)[,.]/u.exec(body);
  return given?.[1] ?? null;
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Whether a line starts an entry. In an unnumbered list, a line starting with a capital after a line that ended
 * an entry (a full stop, a URL or DOI) starts the next entry; otherwise it continues a wrapped one. In a
 * hanging-indent list, a line at the column's edge starts an entry and an indented line continues one.
 */
function startsEntryAt(content: string, marker: RegExpExecArray | null, previous: string | null, inSection: boolean, hanging: boolean): boolean {
  if (inSection && hanging) return marker !== null || !/^\s/.test(content);
  const followsEnd = previous !== null && /(?:[.)]|\b(?:https?:\/\/|doi:\s*|10\.\d{4,9}\/)\S+)\s*$/i.test(previous) && /^\s*[A-Z]/.test(content);
  return marker !== null || AUTHOR_START.test(content) || (inSection && (previous === null || followsEnd));
}

/**
 * The entries of the text's reference lists (after a heading such as "References"), one per numbered item
 * or per author-led paragraph, wrapped lines joined; and, anywhere else, lines shaped like a citation
 * (authors then a year).
 */
export function referenceEntries(text: string): Entry[] {
  const lines = lineSpans(text);
  const entries: Entry[] = [];
  let inSection = false;
  /** The section's list is set with a hanging indent (a column reader's two leading spaces on continuation lines). */
  let hanging = false;
  /** A blank line (a page break) fell inside a numbered list's entry. */
  let afterBreak = false;
  /** The entry being read: its span, and its lines (a page break's blank line and page number left out). */
  let current: { start: number; end: number; marker: string | null; labelled: boolean; lines: string[] } | null = null;
  const close = () => {
    if (current !== null) entries.push({ text: joinedLines(current.lines.join('\n')), start: current.start, end: current.end, marker: current.marker, labelled: current.labelled });
    current = null;
  };
  for (const [index, line] of lines.entries()) {
    const content = text.slice(line.start, line.end);
    if (SECTION_HEADING.test(content)) {
      close();
      inSection = true;
      hanging = isHangingBlock(text, lines, index + 1);
      continue;
    }
    if (content.trim() === '') {
      // A page break inside a numbered list does not end the entry it falls in: a heading after it ends the list.
      if (inSection && !hanging && current?.labelled === true) {
        afterBreak = true;
        continue;
      }
      // A page break inside a hanging-indent list does not end the entry it falls in; the next page's layout decides.
      if (inSection && hanging) {
        const next = isHangingBlock(text, lines, index + 1);
        if (!next) {
          close();
          inSection = false;
          hanging = false;
        }
        continue;
      }
      close();
      continue;
    }
    // A page number, alone on its line between two pages of a list, belongs to no entry.
    if (inSection && (hanging || afterBreak) && /^\s*\d{1,4}\s*$/.test(content)) continue;
    const marker = ENTRY_MARKER.exec(content) ?? (inSection ? LABELLED_ENTRY.exec(content) : null);
    if (afterBreak) {
      afterBreak = false;
      if (marker === null && (looksLikeHeading(content) || NUMBERED_HEADING.test(content) || current === null)) {
        close();
        inSection = false;
      }
    }
    // No entry runs this long: text that does is the document going on after its list without a heading.
    if (current !== null && inSection && marker === null && line.end - current.start > MAX_ENTRY_CHARACTERS) {
      close();
      inSection = false;
      hanging = false;
    }
    const startsEntry = startsEntryAt(content, marker, current === null ? null : current.lines.join('\n'), inSection, hanging);
    if (inSection && (!startsEntry || hanging) && current !== null && looksLikeHeading(content)) {
      // A heading after the list ("Appendix A") ends it.
      close();
      inSection = false;
      hanging = false;
      continue;
    }
    if (startsEntry) {
      close();
      const bracketed = marker !== null && /^\s*\[/.test(content);
      if (inSection || isCitationShaped(content)) current = { start: line.start, end: line.end, marker: marker?.[1] ?? marker?.[2] ?? null, labelled: inSection && bracketed, lines: [content] };
    } else if (current !== null) {
      current.end = line.end;
      current.lines.push(content);
    }
  }
  close();
  return entries.filter((entry) => hasEntrySubstance(entry));
}

/**
 * An entry's lines as one: a word broken at a line's end is mended (`abstrac-` + `tive` → `abstractive`; a
 * capital after the break keeps the hyphen: `STO-` + `RIUM` → `STO-RIUM`), white space folded.
 */
function joinedLines(lines: string): string {
  return lines
    .replace(/(\p{L})-[ \t]*\n\s*(?=\p{Ll})/gu, '$1')
    .replace(/(\p{L})-[ \t]*\n\s*(?=\p{L})/gu, '$1-')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Whether the lines from `from` to the next blank line are set with a hanging indent: between a third and
 * nine tenths of them indented (an entry's first line at the edge, its continuation lines indented). Prose
 * indents only first lines of paragraphs, far fewer.
 */
function isHangingBlock(text: string, lines: readonly { start: number; end: number }[], from: number): boolean {
  let indented = 0;
  let counted = 0;
  for (let index = from; index < lines.length && counted < 120; index++) {
    const content = text.slice(lines[index]!.start, lines[index]!.end);
    if (content.trim() === '') {
      if (counted > 0) break;
      continue;
    }
    if (/^\s*\d{1,4}\s*$/.test(content)) continue;
    counted++;
    if (/^\s+\S/.test(content)) indented++;
  }
  return counted >= 4 && indented >= counted / 3 && indented <= counted * 0.9;
}

/** An entry worth reading: long enough to name a work, and dated (a heading or a stray line is neither), or a labelled item of a list. */
function hasEntrySubstance(entry: Entry): boolean {
  if (entry.labelled) return entry.text.replace(LABELLED_ENTRY, '').trim().length >= 3;
  return entry.text.length >= 20 && YEAR.test(entry.text);
}

function isCitationShaped(line: string): boolean {
  const body = line.replace(ENTRY_MARKER, '');
  return (AUTHOR_START.test(body) && YEAR.test(body)) || (ENTRY_MARKER.test(line) && BRACKETED_YEAR.test(body));
}

/** A numbered section heading after a list: `A Multi-LexSum release`, `A.1 Accessing the data`, `7 Conclusion`. */
const NUMBERED_HEADING = /^\s*(?:[A-Z]|\d{1,2})(?:\.\d{1,2})*\.?\s+[A-Z][^.!?;:,]{2,70}$/;
/** Characters past which a list entry is taken to have ended (the longest entries in real lists run to about 1,000). */
const MAX_ENTRY_CHARACTERS = 2_000;

function looksLikeHeading(line: string): boolean {
  const trimmed = line.trim();
  return trimmed.length < 60 && !/[.,;:]$/.test(trimmed) && /^(?:appendix|annex|attachment|schedule|glossary|acknowledg|about|contact)/i.test(trimmed);
}

function lineSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    spans.push({ start, end: newline === -1 ? text.length : newline });
    if (newline === -1) return spans;
    start = newline + 1;
  }
}

/** Sentence punctuation and unbalanced closing brackets that follow a URL or DOI in prose are not part of it. */
function trimTrailing(written: string): string {
  let value = written;
  for (;;) {
    const last = value.at(-1);
    if (last === undefined) return value;
    if ('.,;:!?\'"’”'.includes(last)) {
      value = value.slice(0, -1);
      continue;
    }
    const pairs: Record<string, string> = { ')': '(', ']': '[', '>': '<' };
    const open = pairs[last];
    if (open !== undefined && count(value, last) > count(value, open)) {
      value = value.slice(0, -1);
      continue;
    }
    return value;
  }
}

function count(text: string, character: string): number {
  return text.split(character).length - 1;
}

function cleanDoi(raw: string): string | null {
  const doi = trimTrailing(raw.trim()).toLowerCase();
  return /^10\.\d{4,9}\/\S+$/.test(doi) ? doi : null;
}

/**
 * The title an entry claims, by the shapes of the common styles: a quoted title (IEEE, Harvard), the
 * sentence after `(year).` (APA), the sentence after `. year.` (ACL), the part after `year,` (Harvard, unquoted), or the second full stop
 * part after the author list (Vancouver). Null when none fits.
 */
export function entryTitle(entry: string): string | null {
  const body = entry.replace(ENTRY_MARKER, '').replace(LABELLED_ENTRY, '').replace(/\b(?:https?:\/\/|doi:\s*|www\.)\S+/gi, '').replace(DOI_PATTERN, '');
  const quoted = /[“"‘]([^”"’]{8,300}?)[,.]?[”"’]/.exec(body) ?? /(?:^|\s)'([^']{8,300}?)[,.]?'(?=[\s,.]|$)/.exec(body);
  if (quoted) return tidyTitle(quoted[1]!);
  const apa = /\((?:1[6-9]\d\d|20\d\d)[a-z]?(?:,[^)]*)?\)\.?\s+(.+?[^A-Z][.?!])(?=\s|$)/.exec(body);
  if (apa) return tidyTitle(apa[1]!);
  // ACL and other author–year styles: "Authors. 2020. Title. In …"
  const yearFirst = /^[^(]*?\.\s+(?:1[6-9]\d\d|20\d\d)[a-z]?\.\s+(.+?[^A-Z\s][.?!])(?=\s|$)/.exec(body);
  if (yearFirst && yearFirst[1]!.split(' ').length >= 2) return tidyTitle(yearFirst[1]!);
  const harvard = /^[^(]*?\b(?:1[6-9]\d\d|20\d\d)[a-z]?,\s+(.+?)[,.](?=\s|$)/.exec(body);
  if (harvard && harvard[1]!.split(' ').length >= 3) return tidyTitle(harvard[1]!);
  const vancouver = /^\s*(?:[A-Z][\p{L}'’-]+\s[A-Z]{1,3},\s*)*[A-Z][\p{L}'’-]+\s[A-Z]{1,3}(?:,?\s*et al)?\.\s+(.+?[^A-Z\s][.?])(?=\s|$)/u.exec(body);
  if (vancouver) return tidyTitle(vancouver[1]!);
  return null;
}

function tidyTitle(title: string): string | null {
  const tidy = title.replace(/\s+/g, ' ').replace(/[\s.,;:]+$/, '').trim();
  return tidy.split(' ').length >= 2 && tidy.length >= 8 ? tidy : null;
}

function entryYear(entry: string): number | null {
  const bracketed = /\((1[6-9]\d\d|20\d\d)[a-z]?[^)]*\)/.exec(entry);
  const year = bracketed?.[1] ?? YEAR.exec(entry.replace(DOI_PATTERN, '').replace(/\bhttps?:\/\/\S+/g, ''))?.[1];
  return year === undefined ? null : Number(year);
}

function firstAuthor(entry: string): string | null {
  const match = /^\s*(?:[A-Z]\.\s?)*([A-Z][\p{L}'’-]+)/u.exec(entry.replace(ENTRY_MARKER, '').replace(LABELLED_ENTRY, ''));
  return match?.[1] ?? null;
}

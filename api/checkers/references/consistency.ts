import { maskNonOperands } from './non-operands.ts';
import { sentenceSpans, type Span } from './text.ts';

/**
 * Recomputes the arithmetic a document states with its own numbers: written sums (`4 + 5 = 9`), table
 * columns against their Total row, "a total of" sentences, "X of Y (Z%)" shares, "from A to B, up Z%"
 * changes, and year spans ("from 2015 to 2020, five years"). Each finding gives the numbers used, the
 * stated and recomputed values and the tolerance, so a reader can redo it. A pure function of text.
 *
 * Tolerance is the rounding the document itself shows. A stated result (a written sum, a share, a change)
 * must be less than one unit of its last digit from the recomputed value (`4 + 5 = 10` is wrong, `1 of 3
 * (33%)` and `(33.3%)` are right, rounded or truncated). A total of rows may differ by up to half a unit of
 * the rows' last digit per row summed, since each row shown may itself be rounded from a finer figure; such
 * a difference is reported as within rounding, not hidden.
 */

export type ConsistencyKind = 'expression' | 'table_total' | 'total' | 'percentage' | 'percentage_change' | 'year_span';

export interface ConsistencyFinding {
  kind: ConsistencyKind;
  /** The sentence, expression or table rows checked, as written (white space folded, at most 400 characters). */
  statement: string;
  numbers_used: number[];
  stated: number;
  recomputed: number;
  tolerance: number;
  consistent: boolean;
  explanation: string;
  start_char: number;
  end_char: number;
}

interface NumberToken {
  value: number;
  /** Decimals shown. */
  decimals: number;
  /** One unit of the last digit shown, in the value's terms: 0.1 for `4.5`, 100,000 for `$1.2 million`. */
  step: number;
  unit: 'percent' | 'currency' | 'plain';
  /** A bare four-digit number from 1800 to 2100: probably a year. */
  yearLike: boolean;
  start: number;
  end: number;
}

const SCALE: Record<string, number> = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, mn: 1e6, billion: 1e9, bn: 1e9, b: 1e9 };
const NUMBER = /(?<![\w.,/])([-−–]?)(\$|A\$|NZ\$|US\$|AUD\s?|NZD\s?)?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?!\.\d)(\s?(?:%|per\s?cent\b))?(?:\s?(thousand|million|billion|bn|mn|k|m|b)\b)?/gi;

/** The numbers in a text, with their units and the decimals they show. */
export function numbersIn(text: string, offset = 0): NumberToken[] {
  const tokens: NumberToken[] = [];
  for (const match of text.matchAll(NUMBER)) {
    const [, sign, currency, whole, fraction, percent, scale] = match;
    const digits = `${whole!.replace(/,/g, '')}${fraction === undefined ? '' : `.${fraction}`}`;
    const multiplier = scale === undefined ? 1 : SCALE[scale.toLowerCase()]!;
    const value = (sign === '' ? 1 : -1) * Number(digits) * multiplier;
    if (!Number.isFinite(value)) continue;
    const plain = currency === undefined && percent === undefined && scale === undefined;
    tokens.push({
      value,
      decimals: fraction?.length ?? 0,
      step: 10 ** -(fraction?.length ?? 0) * multiplier,
      unit: percent !== undefined ? 'percent' : currency !== undefined ? 'currency' : 'plain',
      yearLike: plain && sign === '' && fraction === undefined && /^\d{4}$/.test(whole!) && value >= 1800 && value <= 2100,
      start: offset + match.index,
      end: offset + match.index + match[0].length,
    });
  }
  return tokens;
}

/**
 * Every arithmetic statement found in the text, checked. Numbers that are never operands (citation markers,
 * footnote and page numbers, dates, numbered sections, reference-list entries: `non-operands.ts`) are blanked
 * first; statements are quoted from the text as written.
 */
export function checkConsistency(text: string): ConsistencyFinding[] {
  const masked = maskNonOperands(text);
  const sentences = sentenceSpans(text);
  const findings = [...expressions(masked, text), ...tableTotals(masked, text)];
  for (const sentence of sentences) findings.push(...sentenceChecks(sentence, masked.slice(sentence.start, sentence.end).replace(/\s+/g, ' ')));
  const seen = new Set<string>();
  return findings
    .sort((a, b) => a.start_char - b.start_char)
    .filter((finding) => {
      const key = `${finding.kind}:${finding.start_char}:${finding.stated}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;
const folded = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 400);

/**
 * A checked statement. `allowed` is the tolerance; a stated result must fall strictly inside one unit of its
 * last digit (`exclusive`), a total of rounded rows may reach the summed rounding (inclusive).
 */
function finding(kind: ConsistencyKind, statement: string, numbers: number[], stated: number, recomputed: number, allowed: number, exclusive: boolean, explanation: string, start: number, end: number): ConsistencyFinding {
  const difference = Math.abs(stated - recomputed);
  const consistent = difference < 1e-9 || (exclusive ? difference < allowed - 1e-9 : difference <= allowed + 1e-9);
  const note = consistent && difference >= 1e-9 && !exclusive ? ` It differs by ${round(difference)}, within the rounding of the figures shown.` : '';
  return { kind, statement: folded(statement), numbers_used: numbers, stated, recomputed: round(recomputed), tolerance: round(allowed), consistent, explanation: explanation + note, start_char: start, end_char: end };
}

/** `a + b − c = d`, `a × b = d`, `a / b = d` written out (found in `text` with non-operands blanked, quoted from `original`). */
function expressions(text: string, original: string): ConsistencyFinding[] {
  const found: ConsistencyFinding[] = [];
  const operand = String.raw`[-−]?\$?\d[\d,]*(?:\.\d+)?%?`;
  // At most twelve terms: a written sum is short, and an unbounded chain makes the search quadratic on long runs.
  const pattern = new RegExp(String.raw`(?<![\w.,])${operand}(?:\s*[+\-−×x*/÷]\s*${operand}){1,11}\s*=\s*${operand}`, 'g');
  for (const match of text.matchAll(pattern)) {
    const written = match[0];
    const parts = written.split('=');
    const right = numbersIn(parts[1]!)[0];
    const left = parts[0]!;
    const terms = numbersIn(left);
    const operators = [...left.replace(/\d[\d,]*(?:\.\d+)?/g, ' ').matchAll(/[+\-−×x*/÷]/g)].map((operator) => operator[0]);
    if (right === undefined || terms.length < 2) continue;
    // A leading minus belongs to the first number, not to the chain of operators.
    const chain = operators.length === terms.length ? operators.slice(1) : operators;
    if (chain.length !== terms.length - 1) continue;
    const multiplicative = chain.some((operator) => '×x*/÷'.includes(operator));
    if (multiplicative && chain.length > 1) continue;
    let value = terms[0]!.value;
    chain.forEach((operator, index) => {
      const next = terms[index + 1]!.value;
      value = operator === '+' ? value + next : '-−'.includes(operator) ? value - next : '/÷'.includes(operator) ? value / next : value * next;
    });
    if (!Number.isFinite(value)) continue;
    found.push(finding('expression', original.slice(match.index, match.index + written.length), terms.map((term) => term.value), right.value, value, right.step, true, `Recomputed ${written.split('=')[0]!.trim()} = ${round(value)}.`, match.index, match.index + written.length));
  }
  return found;
}

interface Row {
  label: string;
  values: NumberToken[];
  start: number;
  end: number;
}

const TOTAL_LABEL = /^\s*(?:grand\s+)?(?:sub-?)?total\b|^\s*(?:sum|overall|all\s+\w+)\s*$/i;

/**
 * Table columns against their Total row: rows are lines ending in a run of numbers (cells split by tabs or
 * spaces); a block of such rows with the same count of numbers, ended by a line labelled Total (Subtotal,
 * Grand total), has each column summed and compared.
 */
function tableTotals(text: string, original: string): ConsistencyFinding[] {
  const found: ConsistencyFinding[] = [];
  let block: Row[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    const row = tableRow(line, original.slice(offset, offset + line.length), offset);
    offset += line.length + 1;
    if (row === null) {
      block = [];
      continue;
    }
    if (TOTAL_LABEL.test(row.label)) {
      const body = block.filter((entry) => entry.values.length === row.values.length);
      if (body.length >= 2 && body.length === block.length) found.push(...columnChecks(body, row, original));
      block = [];
      continue;
    }
    if (block.length > 0 && block[0]!.values.length !== row.values.length) block = [];
    block.push(row);
  }
  return found;
}

/** A table row of `line` (non-operands blanked), its label quoted from `written`, the same line as written. */
function tableRow(line: string, written: string, offset: number): Row | null {
  const tokens = numbersIn(line, offset);
  if (tokens.length === 0) return null;
  // The numbers at the line's end, only white space between them: the row's cells.
  const cells: NumberToken[] = [];
  for (let index = tokens.length - 1; index >= 0; index--) {
    const token = tokens[index]!;
    const after = line.slice(token.end - offset, (cells[0]?.start ?? offset + line.trimEnd().length) - offset);
    if (after.trim() !== '') break;
    cells.unshift(token);
  }
  if (cells.length === 0) return null;
  const label = written.slice(0, cells[0]!.start - offset).trim();
  if (line.slice(0, cells[0]!.start - offset).replace(/[#\s]/g, '') === '' && label !== '') return null;
  if (label === '' || cells.every((cell) => cell.yearLike)) return null;
  return { label, values: cells, start: offset, end: offset + line.length };
}

function columnChecks(body: Row[], total: Row, text: string): ConsistencyFinding[] {
  const checks: ConsistencyFinding[] = [];
  for (let column = 0; column < total.values.length; column++) {
    const cells = body.map((row) => row.values[column]!);
    const stated = total.values[column]!;
    if (stated.yearLike || cells.some((cell) => cell.yearLike)) continue;
    const sum = cells.reduce((sumSoFar, cell) => sumSoFar + cell.value, 0);
    const allowed = Math.max(stated.step / 2, (Math.max(...cells.map((cell) => cell.step)) / 2) * cells.length);
    const statement = text.slice(body[0]!.start, total.end);
    const name = total.values.length === 1 ? 'the column' : `column ${column + 1} of ${total.values.length}`;
    checks.push(finding('table_total', statement, cells.map((cell) => cell.value), stated.value, sum, allowed, false, `Summed ${name} over ${cells.length} rows (${body.map((row) => row.label).join(', ').slice(0, 200)}) against “${total.label}”.`, body[0]!.start, total.end));
  }
  return checks;
}

const CHANGE_UP = /\b(?:increase[sd]?|rise|rose|risen|grew|grown|growth|up|gain(?:ed)?|higher|climb(?:ed)?|jump(?:ed)?)\b/i;
const CHANGE_DOWN = /\b(?:decrease[sd]?|fall|fell|fallen|decline[sd]?|drop(?:ped)?|down|lower|loss|shrank|cut|reduc(?:ed|tion))\b/i;
const SMALL_NUMBERS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14,
  fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20, thirty: 30, forty: 40, fifty: 50,
};

/** A duration written in words or digits ("twenty-three", "5") as a number. */
function durationValue(words: string): number {
  const parts = words.toLowerCase().split(/[\s-]+/);
  return parts.reduce((sum, part) => sum + (SMALL_NUMBERS[part] ?? Number(part)), 0);
}

/** Words between a figure and what it counts that say nothing of the thing counted. */
const NOT_COUNTED_NOUNS = new Set(['and', 'or', 'in', 'of', 'to', 'the', 'from', 'with', 'for', 'each', 'per', 'a', 'an', 'at', 'on', 'by', 'respectively', 'more', 'million', 'billion', 'thousand']);

/** The word right after a figure (`cases` in "812 cases"), singular, when it names what is counted. */
function countedNoun(text: string, token: NumberToken): string | null {
  const word = /^\s*([\p{L}]+)/u.exec(text.slice(token.end))?.[1]?.toLowerCase();
  if (word === undefined || NOT_COUNTED_NOUNS.has(word)) return null;
  return word.length > 3 ? word.replace(/s$/, '') : word;
}

/** The checks of one sentence: `masked` is its text with non-operands blanked, matched; the sentence as written is quoted. */
function sentenceChecks(sentence: Span, masked: string): ConsistencyFinding[] {
  const found: ConsistencyFinding[] = [];
  const text = masked;
  const statement = sentence.text;
  const numbers = numbersIn(text);
  const at = { start: sentence.start, end: sentence.end };

  // "45 of 120 respondents (37.5%)", "45 out of 120, or 37.5%"
  for (const match of text.matchAll(/(?<![\w.,])(\d[\d,]*(?:\.\d+)?)\s+(?:out\s+)?of\s+(?:the\s+|all\s+|a\s+total\s+of\s+)?(\d[\d,]*(?:\.\d+)?)\b[^.;%()]{0,50}?[(,–-]\s*(?:or\s+|about\s+|around\s+)?(\d+(?:\.\d+)?)\s?(?:%|per\s?cent)/gi)) {
    const part = Number(match[1]!.replace(/,/g, ''));
    const whole = Number(match[2]!.replace(/,/g, ''));
    const stated = Number(match[3]);
    if (whole === 0) continue;
    const decimals = match[3]!.split('.')[1]?.length ?? 0;
    found.push(finding('percentage', statement, [part, whole], stated, (part / whole) * 100, 10 ** -decimals, true, `Recomputed ${part} ÷ ${whole} × 100.`, at.start, at.end));
  }

  // "from 200 to 250, an increase of 25%", "rose 25% from 200 to 250", "fell by 30 from 120 to 90"
  const span = /\bfrom\s+(\$?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|per\s?cent))?(?:\s?(?:thousand|million|billion|bn|m|k)\b)?)(?:\s+[a-z²]{1,12})?\s+(?:in\s+\d{4}\s+)?to\s+(\$?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|per\s?cent))?(?:\s?(?:thousand|million|billion|bn|m|k)\b)?)/i.exec(text);
  const up = CHANGE_UP.test(text);
  const down = CHANGE_DOWN.test(text);
  if (span !== null && up !== down) {
    const [from, to] = [numbersIn(span[1]!)[0], numbersIn(span[2]!)[0]];
    const others = numbers.filter((token) => token.start < span.index || token.start >= span.index + span[0].length).filter((token) => !token.yearLike);
    const percent = others.find((token) => token.unit === 'percent');
    if (from !== undefined && to !== undefined && !from.yearLike && !to.yearLike && from.unit !== 'percent' && percent !== undefined && from.value !== 0) {
      const change = ((to.value - from.value) / from.value) * 100;
      const stated = (down ? -1 : 1) * Math.abs(percent.value);
      found.push(finding('percentage_change', statement, [from.value, to.value], stated, change, percent.step, true, `Recomputed (${to.value} − ${from.value}) ÷ ${from.value} × 100; the sentence says ${down ? 'a fall' : 'a rise'} of ${Math.abs(percent.value)}%.`, at.start, at.end));
    }
  }

  // "five years, from 2015 to 2020", "between 2010 and 2019 (nine years)", "in 2020, six years after 2014"
  const years = numbers.filter((token) => token.yearLike);
  // "twenty-three years" is 23 (read whole, not as "three years").
  const duration = /\b((?:twenty|thirty|forty|fifty)(?:[\s-](?:one|two|three|four|five|six|seven|eight|nine)\b)?|\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)[\s-]+years?\b/i.exec(text);
  if (years.length === 2 && duration !== null && /\b(?:from|between|since|after|later|before|earlier|over|period|span)/i.test(text)) {
    const stated = durationValue(duration[1]!);
    const [first, second] = [years[0]!.value, years[1]!.value];
    const elapsed = Math.abs(second - first);
    // "from 2015 to 2020" is 5 years elapsed, or 6 counted inclusively (2015, …, 2020): both are honest readings.
    const inclusive = /\b(?:from|between)\b/i.test(text) && stated === elapsed + 1;
    found.push(finding('year_span', statement, [first, second], stated, inclusive ? elapsed + 1 : elapsed, 0, false, inclusive ? `Counted ${Math.min(first, second)} to ${Math.max(first, second)} inclusively: ${elapsed + 1} years.` : `Recomputed ${Math.max(first, second)} − ${Math.min(first, second)} = ${elapsed} years.`, at.start, at.end));
  }

  // "$1.2m, $0.8m and $0.5m, a total of $2.5m"
  const totalPhrase = /\b(?:a\s+total\s+of|totall?ing|in\s+total|together|combined|altogether|sum\s+of)\b/i.exec(text);
  if (totalPhrase !== null) {
    const before = numbers.filter((token) => token.end <= totalPhrase.index && !token.yearLike);
    const after = numbers.filter((token) => token.start >= totalPhrase.index && !token.yearLike);
    const phraseBeforeNumber = /^(?:a\s+total\s+of|totall?ing|sum\s+of)$/i.test(totalPhrase[0].replace(/\s+/g, ' '));
    const statedToken = phraseBeforeNumber ? after[0] : before.at(-1);
    const addends = phraseBeforeNumber ? before : before.slice(0, -1);
    // Figures counting different things do not add up to one total ("40 new cases … 180 hours in total").
    const counted = (token: NumberToken) => countedNoun(text, token);
    const sameThing = (token: NumberToken) => counted(token) === null || counted(statedToken!) === null || counted(token) === counted(statedToken!);
    if (statedToken !== undefined && addends.length >= 2 && addends.every((token) => token.unit === statedToken.unit && sameThing(token))) {
      const sum = addends.reduce((sumSoFar, token) => sumSoFar + token.value, 0);
      const allowed = Math.max(statedToken.step / 2, (Math.max(...addends.map((token) => token.step)) / 2) * addends.length);
      found.push(finding('total', statement, addends.map((token) => token.value), statedToken.value, sum, allowed, false, `Added the ${addends.length} figures before “${totalPhrase[0]}”.`, at.start, at.end));
    }
  }
  return found;
}

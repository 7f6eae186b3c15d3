/**
 * A small reader of page content streams (ISO 32000-1 §8–9 operators), written here because neither kept
 * library reports drawing order with positions in a form this check needs: it follows the current
 * transformation matrix, the fill colour and the text matrix, and reports, in drawing order, where text is
 * shown and where rectangles are filled and in which colour.
 */

export type Matrix = [number, number, number, number, number, number];

export type ContentEvent =
  | { kind: 'text'; x: number; y: number; invisible: boolean; sample: string; order: number }
  | { kind: 'fill'; box: { x0: number; y0: number; x1: number; y1: number }; white: boolean; order: number }
  | { kind: 'marker'; tag: string; order: number };

type Operand = number | string | Operand[] | { name: string } | null;

const identity: Matrix = [1, 0, 0, 1, 0, 0];

export function multiply(m: Matrix, n: Matrix): Matrix {
  return [m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3], m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3], m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5]];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

interface GraphicsState {
  ctm: Matrix;
  fill: number[];
  fillSpace: string;
}

/** Events at most, per page: a page drawing more is read up to here. */
export const EVENT_LIMIT = 20_000;

// An interpreter of the PDF content-stream operators (ISO 32000-1 §8–9): its length is that grammar, one case per operator.
export function contentEvents(content: Uint8Array): ContentEvent[] {
  const events: ContentEvent[] = [];
  const stack: GraphicsState[] = [];
  let state: GraphicsState = { ctm: identity, fill: [0], fillSpace: 'DeviceGray' };
  let textMatrix: Matrix = identity;
  let lineMatrix: Matrix = identity;
  let fontSize = 12;
  let leading = 0;
  let renderMode = 0;
  let path: { x0: number; y0: number; x1: number; y1: number }[] = [];
  let order = 0;
  const operands: Operand[] = [];
  const num = (index: number): number => {
    const value = operands[operands.length - index];
    return typeof value === 'number' ? value : 0;
  };
  const moveText = (tx: number, ty: number): void => {
    lineMatrix = multiply([1, 0, 0, 1, tx, ty], lineMatrix);
    textMatrix = lineMatrix;
  };
  const show = (sample: string): void => {
    // A point just inside the first glyph (a tenth of an em in, a third of the size up), where a cover would sit.
    const [x, y] = apply(multiply(textMatrix, state.ctm), fontSize * 0.1, fontSize * 0.3);
    events.push({ kind: 'text', x, y, invisible: renderMode === 3 || renderMode === 7, sample, order: order++ });
  };
  for (const token of tokens(content)) {
    if (events.length >= EVENT_LIMIT) break;
    if (token.type === 'operand') {
      operands.push(token.value);
      if (operands.length > 64) operands.shift();
      continue;
    }
    switch (token.value) {
      case 'q':
        if (stack.length < 64) stack.push(state);
        break;
      case 'Q':
        state = stack.pop() ?? state;
        break;
      case 'cm':
        state = { ...state, ctm: multiply([num(6), num(5), num(4), num(3), num(2), num(1)], state.ctm) };
        break;
      case 'g':
        state = { ...state, fill: [num(1)], fillSpace: 'DeviceGray' };
        break;
      case 'rg':
        state = { ...state, fill: [num(3), num(2), num(1)], fillSpace: 'DeviceRGB' };
        break;
      case 'k':
        state = { ...state, fill: [num(4), num(3), num(2), num(1)], fillSpace: 'DeviceCMYK' };
        break;
      case 'cs': {
        const space = operands.at(-1);
        state = { ...state, fillSpace: typeof space === 'object' && space !== null && 'name' in space ? space.name : 'other', fill: [0] };
        break;
      }
      case 'sc':
      case 'scn':
        state = { ...state, fill: operands.filter((operand): operand is number => typeof operand === 'number') };
        break;
      case 're': {
        const [x, y, w, h] = [num(4), num(3), num(2), num(1)];
        const corners = [apply(state.ctm, x, y), apply(state.ctm, x + w, y), apply(state.ctm, x, y + h), apply(state.ctm, x + w, y + h)];
        path.push({ x0: Math.min(...corners.map((c) => c[0])), y0: Math.min(...corners.map((c) => c[1])), x1: Math.max(...corners.map((c) => c[0])), y1: Math.max(...corners.map((c) => c[1])) });
        break;
      }
      case 'm':
      case 'l':
      case 'c':
      case 'v':
      case 'y': {
        // A path drawn point by point (pdf-lib's drawRectangle and many editors' white-out draw m/l/h, not
        // re): its bounding box, the curves' control points included, stands for the filled area.
        const count = token.value === 'c' ? 3 : token.value === 'v' || token.value === 'y' ? 2 : 1;
        const points = Array.from({ length: count }, (_, index) => apply(state.ctm, num(2 * (count - index)), num(2 * (count - index) - 1)));
        const last = path.at(-1);
        const xs = points.map((point) => point[0]);
        const ys = points.map((point) => point[1]);
        if (token.value === 'm' || !last) path.push({ x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) });
        else path[path.length - 1] = { x0: Math.min(last.x0, ...xs), y0: Math.min(last.y0, ...ys), x1: Math.max(last.x1, ...xs), y1: Math.max(last.y1, ...ys) };
        break;
      }
      case 'f':
      case 'F':
      case 'f*':
      case 'B':
      case 'B*':
      case 'b':
      case 'b*':
        for (const box of path) events.push({ kind: 'fill', box, white: isWhite(state), order: order++ });
        path = [];
        break;
      case 'n':
      case 'S':
      case 's':
      case 'W':
      case 'W*':
        if (token.value !== 'W' && token.value !== 'W*') path = [];
        break;
      case 'BT':
        textMatrix = identity;
        lineMatrix = identity;
        break;
      case 'Tf':
        fontSize = num(1) || fontSize;
        break;
      case 'Tr':
        renderMode = num(1);
        break;
      case 'TL':
        leading = num(1);
        break;
      case 'Td':
        moveText(num(2), num(1));
        break;
      case 'TD':
        leading = -num(1);
        moveText(num(2), num(1));
        break;
      case 'Tm':
        lineMatrix = [num(6), num(5), num(4), num(3), num(2), num(1)];
        textMatrix = lineMatrix;
        break;
      case 'T*':
        moveText(0, -leading);
        break;
      case 'Tj':
      case 'TJ':
        show(sampleOf(operands.at(-1)));
        break;
      case "'":
        moveText(0, -leading);
        show(sampleOf(operands.at(-1)));
        break;
      case '"':
        moveText(0, -leading);
        show(sampleOf(operands.at(-1)));
        break;
      case 'MP':
      case 'BMC':
      case 'BDC': {
        const tag = operands[operands.length - (token.value === 'BDC' ? 2 : 1)];
        if (typeof tag === 'object' && tag !== null && 'name' in tag) events.push({ kind: 'marker', tag: tag.name, order: order++ });
        break;
      }
      default:
        break;
    }
    operands.length = 0;
  }
  return events;
}

function isWhite(state: GraphicsState): boolean {
  const { fill, fillSpace } = state;
  if (fillSpace === 'DeviceGray' && fill.length === 1) return fill[0]! >= 0.95;
  if (fillSpace === 'DeviceRGB' && fill.length === 3) return fill.every((value) => value >= 0.95);
  if (fillSpace === 'DeviceCMYK' && fill.length === 4) return fill.every((value) => value <= 0.05);
  return false;
}

/** Printable characters of a shown string (simple fonts only; two-byte codes read as nothing useful). */
function sampleOf(operand: Operand | undefined): string {
  if (typeof operand === 'string') return operand.replace(/[^\x20-\x7e]/g, '');
  if (Array.isArray(operand)) return operand.map((part) => (typeof part === 'string' ? part : '')).join('').replace(/[^\x20-\x7e]/g, '');
  return '';
}

type Token = { type: 'operand'; value: Operand } | { type: 'operator'; value: string };

const whitespace = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const delimiters = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const numberPattern = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** Tokens of a content stream (read as one byte per character); inline image data (BI … ID … EI) is skipped. */
function* tokens(bytes: Uint8Array): Generator<Token> {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const length = source.length;
  let at = 0;
  const arrays: Operand[][] = [];
  const wordEnd = (from: number): number => {
    let end = from;
    while (end < length && !whitespace.has(source.charCodeAt(end)) && !delimiters.has(source.charCodeAt(end))) end += 1;
    return end;
  };
  while (at < length) {
    const code = source.charCodeAt(at);
    let operand: Operand | undefined;
    if (whitespace.has(code)) {
      at += 1;
      continue;
    } else if (code === 0x25) {
      while (at < length && source.charCodeAt(at) !== 0x0a && source.charCodeAt(at) !== 0x0d) at += 1;
      continue;
    } else if (code === 0x28) {
      const [text, next] = literalString(source, at);
      at = next;
      operand = text;
    } else if (code === 0x3c && source.charCodeAt(at + 1) === 0x3c) {
      // Inline dictionaries (BDC properties) are skipped whole.
      let depth = 0;
      while (at < length) {
        if (source.startsWith('<<', at)) {
          depth += 1;
          at += 2;
        } else if (source.startsWith('>>', at)) {
          depth -= 1;
          at += 2;
          if (depth === 0) break;
        } else at += 1;
      }
      operand = null;
    } else if (code === 0x3c) {
      const end = source.indexOf('>', at);
      const hex = source.slice(at + 1, end < 0 ? length : end).replace(/[^0-9a-fA-F]/g, '');
      at = end < 0 ? length : end + 1;
      operand = Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex').toString('latin1');
    } else if (code === 0x5b) {
      arrays.push([]);
      at += 1;
      continue;
    } else if (code === 0x5d) {
      at += 1;
      operand = arrays.pop() ?? [];
    } else if (code === 0x2f) {
      const end = wordEnd(at + 1);
      operand = { name: source.slice(at + 1, end) };
      at = end;
    } else {
      const end = Math.max(wordEnd(at), at + 1);
      const word = source.slice(at, end);
      at = end;
      if (numberPattern.test(word)) operand = Number(word);
      else if (word === 'true' || word === 'false' || word === 'null') operand = null;
      else if (word === 'BI') {
        at = skipInlineImage(source, at);
        continue;
      } else {
        if (arrays.length === 0) yield { type: 'operator', value: word };
        continue;
      }
    }
    if (arrays.length > 0) arrays.at(-1)!.push(operand);
    else yield { type: 'operand', value: operand };
  }
}

function literalString(source: string, start: number): [string, number] {
  let depth = 0;
  let at = start;
  let text = '';
  while (at < source.length) {
    const code = source.charCodeAt(at);
    if (code === 0x5c) {
      const next = source.charCodeAt(at + 1);
      if (next >= 0x30 && next <= 0x37) {
        const digits = /^[0-7]{1,3}/.exec(source.slice(at + 1, at + 4))![0];
        text += String.fromCharCode(Number.parseInt(digits, 8) & 0xff);
        at += 1 + digits.length;
        continue;
      }
      const escapes: Record<number, string> = { 0x6e: '\n', 0x72: '\r', 0x74: '\t', 0x62: '\b', 0x66: '\f' };
      if (!Number.isNaN(next) && next !== 0x0a && next !== 0x0d) text += escapes[next] ?? String.fromCharCode(next);
      at += 2;
      continue;
    }
    if (code === 0x28) {
      depth += 1;
      if (depth > 1) text += '(';
    } else if (code === 0x29) {
      depth -= 1;
      if (depth === 0) return [text, at + 1];
      text += ')';
    } else {
      text += source[at];
    }
    at += 1;
  }
  return [text, at];
}

/** Past an inline image's data: to the `EI` that follows `ID` and stands between whitespace. */
function skipInlineImage(source: string, from: number): number {
  const id = source.indexOf('ID', from);
  if (id < 0) return source.length;
  let at = id + 3;
  while (at < source.length) {
    const ei = source.indexOf('EI', at);
    if (ei < 0) return source.length;
    const after = source.charCodeAt(ei + 2);
    if (whitespace.has(source.charCodeAt(ei - 1)) && (Number.isNaN(after) || whitespace.has(after))) return ei + 2;
    at = ei + 2;
  }
  return source.length;
}

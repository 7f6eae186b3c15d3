/**
 * Hand-assembled PDFs for the warrant tests: every object written out, so a test states exactly what a file
 * holds (an incremental update, a cover drawn over text, a script) and nothing else.
 */

export interface ObjectSpec {
  num: number;
  /** The dictionary (or other object) text. */
  body: string;
  /** Stream data; /Length is added to `body`, which must then be a dictionary. */
  stream?: string | Uint8Array;
}

const encoder = new TextEncoder();

function bytesOf(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
}

/** Serialises objects and a classic xref table; `trailer` is the trailer dictionary's inside (without << >>). */
function section(startOffset: number, objects: ObjectSpec[], trailer: string, prefix: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [prefix];
  let offset = startOffset + prefix.length;
  const offsets = new Map<number, number>();
  for (const object of objects) {
    offsets.set(object.num, offset);
    let text: Uint8Array;
    if (object.stream === undefined) {
      text = encoder.encode(`${object.num} 0 obj\n${object.body}\nendobj\n`);
    } else {
      const data = bytesOf(object.stream);
      const dict = object.body.replace(/>>\s*$/, ` /Length ${data.length} >>`);
      text = Buffer.concat([Buffer.from(`${object.num} 0 obj\n${dict}\nstream\n`, 'latin1'), data, Buffer.from('\nendstream\nendobj\n', 'latin1')]);
    }
    parts.push(text);
    offset += text.length;
  }
  const xrefAt = offset;
  const numbers = [...offsets.keys()].sort((a, b) => a - b);
  let xref = 'xref\n';
  if (startOffset === 0) xref += '0 1\n0000000000 65535 f \n';
  for (const num of numbers) xref += `${num} 1\n${String(offsets.get(num)).padStart(10, '0')} 00000 n \n`;
  parts.push(encoder.encode(`${xref}trailer\n<< ${trailer} >>\nstartxref\n${xrefAt}\n%%EOF\n`));
  return Buffer.concat(parts);
}

export function buildPdf(objects: ObjectSpec[], trailer: string): Uint8Array {
  return section(0, objects, trailer, Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'));
}

/** Appends an incremental update (objects, classic xref, trailer with /Prev) to `bytes`. */
export function appendUpdate(bytes: Uint8Array, objects: ObjectSpec[], trailer: string): Uint8Array {
  const text = Buffer.from(bytes).toString('latin1');
  const prev = Number(/startxref\s+(\d+)\s*%%EOF\s*$/.exec(text)?.[1]);
  return Buffer.concat([bytes, section(bytes.length, objects, `${trailer} /Prev ${prev}`, new Uint8Array())]);
}

export interface SimplePdfOptions {
  /** Content stream of each page. */
  pages: string[];
  /** Info dictionary inside, e.g. `/Producer (x)`. */
  info?: string;
  /** Extra catalog entries, e.g. `/OpenAction 20 0 R`. */
  catalog?: string;
  /** Extra page entries for page 1, e.g. `/Annots [21 0 R]`. */
  page?: string;
  /** Extra font resources, e.g. `/F2 30 0 R`. */
  fonts?: string;
  objects?: ObjectSpec[];
}

/** Object numbers: 1 catalog, 2 page tree, 3 Helvetica, 4 info, page n at 5+2n with its content at 6+2n; extras from 20. */
export function simplePdf(options: SimplePdfOptions): Uint8Array {
  const kids = options.pages.map((_, index) => `${5 + 2 * index} 0 R`).join(' ');
  const objects: ObjectSpec[] = [
    { num: 1, body: `<< /Type /Catalog /Pages 2 0 R ${options.catalog ?? ''} >>` },
    { num: 2, body: `<< /Type /Pages /Kids [${kids}] /Count ${options.pages.length} >>` },
    { num: 3, body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>' },
    { num: 4, body: `<< ${options.info ?? '/Producer (Test Writer 1.0) /CreationDate (D:20250301090000Z)'} >>` },
    ...options.pages.flatMap((content, index) => [
      {
        num: 5 + 2 * index,
        body: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R ${options.fonts ?? ''} >> >> /Contents ${6 + 2 * index} 0 R ${index === 0 ? (options.page ?? '') : ''} >>`,
      },
      { num: 6 + 2 * index, body: '<< >>', stream: content },
    ]),
    ...(options.objects ?? []),
  ];
  return buildPdf(objects, `/Size ${Math.max(...objects.map((object) => object.num)) + 1} /Root 1 0 R /Info 4 0 R`);
}

/** A content stream drawing each line of text in Helvetica 12 from (72, 760) down. */
export function textLines(lines: string[]): string {
  return lines.map((line, index) => `BT /F1 12 Tf 72 ${760 - index * 20} Td (${line.replace(/([()\\])/g, '\\$1')}) Tj ET`).join('\n');
}

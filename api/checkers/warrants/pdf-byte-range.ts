import type { PdfLayout } from './pdf-layout.ts';

/**
 * What a signature's /ByteRange covers, checked exactly as a validator does before it trusts a digest: four
 * non-negative integers, the first range starting at byte 0, the gap between the two ranges being exactly
 * the signature's own /Contents hex string, and the second range ending where a saved revision ends (its
 * %%EOF, with or without the blank bytes after it). A range that passes covers either the whole file or one
 * revision with later updates after it; one that fails is a malformed or manipulated signature, never
 * "unclear".
 */
export type Coverage =
  | { kind: 'whole_file' | 'revision'; revision: number; signedEnd: number; gap: [number, number] }
  | { kind: 'invalid'; problem: string; offset: number };

export function byteRangeCoverage(bytes: Uint8Array, text: string, layout: PdfLayout, signatureObject: string, range: number[] | null): Coverage {
  const invalid = (problem: string, offset: number): Coverage => ({ kind: 'invalid', problem, offset });
  const header = latestHeader(layout, signatureObject, Number.POSITIVE_INFINITY);
  if (!range || range.length !== 4 || range.some((value) => !Number.isInteger(value) || value < 0)) return invalid(`its /ByteRange ${JSON.stringify(range)} is not four non-negative integers`, header ?? 0);
  const [start, firstLength, secondStart, secondLength] = range as [number, number, number, number];
  if (start !== 0) return invalid(`its /ByteRange starts at byte ${start}, not at the first byte of the file`, start);
  if (firstLength >= secondStart) return invalid(`its two byte ranges overlap or touch (the first ends at ${firstLength}, the second starts at ${secondStart}), so nothing is left out for the signature value`, secondStart);
  const signedEnd = secondStart + secondLength;
  if (signedEnd > bytes.length) return invalid(`its /ByteRange ends at byte ${signedEnd}, past the end of the ${bytes.length}-byte file`, bytes.length);

  // The gap is the hex string with its delimiters (ISO 32000-1 §12.8.1); some writers leave the delimiters in the signed bytes.
  const withDelimiters = bytes[firstLength] === 0x3c && bytes[secondStart - 1] === 0x3e;
  const insideDelimiters = bytes[firstLength - 1] === 0x3c && bytes[secondStart] === 0x3e;
  const inner = withDelimiters ? text.slice(firstLength + 1, secondStart - 1) : text.slice(firstLength, secondStart);
  if ((!withDelimiters && !insideDelimiters) || !/^[0-9A-Fa-f\s]*$/.test(inner)) return invalid(`the bytes it leaves out (${firstLength}–${secondStart}) are not a hex string, so something other than the signature value is unsigned`, firstLength);
  const valueStart = withDelimiters ? firstLength : firstLength - 1;
  const owner = latestHeader(layout, signatureObject, valueStart);
  const before = owner === undefined ? '' : text.slice(owner, valueStart);
  if (owner === undefined || before.includes('endobj') || !/\/Contents\s*$/.test(before)) {
    return invalid(`the bytes it leaves out (${firstLength}–${secondStart}) are not the /Contents of ${signatureObject} itself, so this dictionary's byte range belongs to another signature`, firstLength);
  }

  // Writers differ on whether the end-of-line after %%EOF is signed; only blank bytes may lie between.
  const revision = layout.revisions.find((candidate) => candidate.end <= signedEnd && /^[\s\0]*$/.test(text.slice(candidate.end, signedEnd)));
  if (!revision) {
    const inside = layout.revisions.find((candidate) => signedEnd < candidate.end);
    return invalid(`it signs bytes 0–${signedEnd}, which is not where any saved revision ends${inside ? ` (revision ${inside.index} ends at ${inside.end})` : ''}`, signedEnd);
  }
  if (owner >= signedEnd) return invalid(`its dictionary (at byte ${owner}) lies outside the bytes it signs`, owner);
  const last = revision.index === layout.revisions.length - 1 && /^[\s\0]*$/.test(text.slice(signedEnd));
  return { kind: last ? 'whole_file' : 'revision', revision: revision.index, signedEnd, gap: [firstLength, secondStart] };
}

/** Offset of the last `N G obj` header of `object` that starts before `before`. */
function latestHeader(layout: PdfLayout, object: string, before: number): number | undefined {
  return layout.objectHeaders
    .get(object.replace(/\s+R$/, ''))
    ?.filter((offset) => offset < before)
    .at(-1);
}

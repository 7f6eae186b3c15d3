/**
 * Where a JPEG's image data ends. Entropy-coded data never holds 0xFF 0xD9 (a 0xFF data byte is always
 * followed by 0x00 or a restart marker), so the first end-of-image marker after the first start-of-scan
 * ends the picture: none means the file was cut short; bytes after it were appended (phones append
 * motion-photo video, depth maps or gain maps there; other tools hide data there).
 */
export interface JpegEnding {
  /** Offset just past the end-of-image marker, or null when the picture data is cut short. */
  end: number | null;
  /** Bytes after the end-of-image marker. */
  trailing: number;
}

export function jpegEnding(bytes: Uint8Array): JpegEnding | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let position = 2;
  while (position + 4 <= bytes.length && bytes[position] === 0xff) {
    const marker = bytes[position + 1]!;
    if (marker === 0xff) {
      position += 1;
      continue;
    }
    if (marker === 0xda) break;
    position += 2 + ((bytes[position + 2]! << 8) | bytes[position + 3]!);
  }
  for (let index = position; index + 1 < bytes.length; index++) {
    if (bytes[index] === 0xff && bytes[index + 1] === 0xd9) return { end: index + 2, trailing: bytes.length - index - 2 };
  }
  return { end: null, trailing: 0 };
}

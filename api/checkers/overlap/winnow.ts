import { tokenise, type Token } from './tokens.ts';

/**
 * Winnowing (Schleimer, Wilkerson & Aiken, "Winnowing: Local Algorithms for Document Fingerprinting",
 * SIGMOD 2003; the algorithm of MOSS), over word tokens rather than characters: every k consecutive words
 * (a k-gram) are hashed, and in each window of w consecutive hashes the smallest is kept, the rightmost one
 * on ties, each kept position once. Two texts sharing a run of at least t = w + k - 1 words share at least
 * one kept hash (the guarantee threshold); runs shorter than k words are never seen (the noise threshold).
 * Written from the paper's definitions, not from its Figure 5, which the author's page says has two bugs;
 * winnow.test.ts checks them: the paper's worked example, the guarantee on random texts, and the expected
 * density of 2/(w+1) kept hashes.
 */

/** Noise threshold: words per k-gram. */
export const KGRAM_WORDS = 5;
/** Guarantee threshold: every shared run of this many words or more is found. Also the shortest match reported. */
export const GUARANTEED_MATCH_WORDS = 10;
/** Hashes per window: w = t - k + 1, so that any run of t words spans one whole window. */
export const WINDOW_HASHES = GUARANTEED_MATCH_WORDS - KGRAM_WORDS + 1;

export interface Fingerprint {
  /** The k-gram's 32-bit hash. */
  hash: number;
  /** Index of the k-gram's first token. */
  position: number;
}

/** FNV-1a over a token's UTF-16 code units: 32 bits, fast, and well spread for short strings. */
function tokenHash(token: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) {
    hash ^= token.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const KGRAM_BASE = 0x5bd1e995;

/** The hash of every k-gram of `tokens`, by the index of its first token (empty when there are fewer than k tokens). */
export function kgramHashes(tokens: readonly Token[], k = KGRAM_WORDS): Uint32Array {
  const count = Math.max(0, tokens.length - k + 1);
  const words = Uint32Array.from(tokens, (token) => tokenHash(token.norm));
  const hashes = new Uint32Array(count);
  for (let start = 0; start < count; start++) {
    let hash = 0;
    for (let offset = 0; offset < k; offset++) hash = (Math.imul(hash, KGRAM_BASE) + words[start + offset]!) >>> 0;
    hashes[start] = hash;
  }
  return hashes;
}

/**
 * The winnowed fingerprints of a list of k-gram hashes, in position order. With fewer hashes than one
 * window, the whole list is one window.
 */
export function winnow(hashes: Uint32Array, w = WINDOW_HASHES): Fingerprint[] {
  const fingerprints: Fingerprint[] = [];
  if (hashes.length === 0) return fingerprints;
  const width = Math.min(w, hashes.length);
  let kept = -1;
  for (let windowStart = 0; windowStart + width <= hashes.length; windowStart++) {
    let minimum = windowStart;
    for (let i = windowStart + 1; i < windowStart + width; i++) if (hashes[i]! <= hashes[minimum]!) minimum = i;
    if (minimum !== kept) {
      fingerprints.push({ hash: hashes[minimum]!, position: minimum });
      kept = minimum;
    }
  }
  return fingerprints;
}

export interface FingerprintedText {
  text: string;
  tokens: readonly Token[];
  prints: readonly Fingerprint[];
}

/** A text's tokens and winnowed fingerprints: what the document and every candidate page go through. */
export function fingerprintText(text: string): FingerprintedText {
  const tokens = tokenise(text);
  return { text, tokens, prints: winnow(kgramHashes(tokens)) };
}

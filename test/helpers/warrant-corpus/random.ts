/** mulberry32: a small seeded generator, so the corpus is the same bytes on every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;

export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
export const between = (random: Random, low: number, high: number): number => low + Math.floor(random() * (high - low + 1));

/**
 * Runs `build` with Math.random replaced by a seeded generator. pdf-lib names each page's font resources
 * with a Math.random suffix; seeding it makes a rebuilt document byte-identical. Callers build one
 * document at a time (the corpus builder is sequential).
 */
export async function withSeededMathRandom<T>(seed: number, build: () => Promise<T>): Promise<T> {
  const original = Math.random;
  Math.random = seeded(seed);
  try {
    return await build();
  } finally {
    Math.random = original;
  }
}

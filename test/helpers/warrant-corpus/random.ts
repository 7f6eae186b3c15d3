import { seededRandom } from '../seeded-random.ts';


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
  Math.random = seededRandom(seed);
  try {
    return await build();
  } finally {
    Math.random = original;
  }
}

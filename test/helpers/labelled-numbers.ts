import { seededRandom } from './seeded-random.ts';

/**
 * Australian identifiers with correct (or deliberately wrong) check digits, drawn from a seeded generator
 * so a labelled set is the same on every run.
 */

const digits = (random: () => number, count: number) => Array.from({ length: count }, () => Math.floor(random() * 10)).join('');

/** A nine-digit TFN whose weighted sum is (valid) or is not (invalid) divisible by 11. */
export function tfn(random: () => number, valid = true): string {
  const weights = [1, 4, 3, 7, 5, 8, 6, 9, 10];
  for (;;) {
    const candidate = `${1 + Math.floor(random() * 9)}${digits(random, 8)}`;
    const ok = weights.reduce((sum, weight, i) => sum + weight * Number(candidate[i]), 0) % 11 === 0;
    if (ok === valid) return `${candidate.slice(0, 3)} ${candidate.slice(3, 6)} ${candidate.slice(6)}`;
  }
}

/** An ABN (two check digits before nine digits) that does or does not pass the modulus-89 check. */
export function abn(random: () => number, valid = true): string {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  for (;;) {
    const candidate = `${1 + Math.floor(random() * 9)}${digits(random, 10)}`;
    const ok = weights.reduce((sum, weight, i) => sum + weight * (Number(candidate[i]) - (i === 0 ? 1 : 0)), 0) % 89 === 0;
    if (ok === valid) return `${candidate.slice(0, 2)} ${candidate.slice(2, 5)} ${candidate.slice(5, 8)} ${candidate.slice(8)}`;
  }
}

/** A Medicare card number: first digit 2–6, check digit ninth, issue number tenth. */
export function medicare(random: () => number, valid = true): string {
  const weights = [1, 3, 7, 9, 1, 3, 7, 9];
  const head = `${2 + Math.floor(random() * 5)}${digits(random, 7)}`;
  const check = weights.reduce((sum, weight, i) => sum + weight * Number(head[i]), 0) % 10;
  const ninth = valid ? check : (check + 1 + Math.floor(random() * 9)) % 10;
  return `${head.slice(0, 4)} ${head.slice(4)}${ninth} ${1 + Math.floor(random() * 9)}`;
}

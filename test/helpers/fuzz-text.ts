import assert from 'node:assert/strict';
import fc from 'fast-check';

/**
 * fast-check arbitraries for fuzzing the text parsers: text no file should hold but a badly decoded one
 * does, text made of the pieces a parser looks for, and long repetitive runs that make a careless regular
 * expression or a quadratic loop take minutes. Each shrinks towards short, plain input, so a failure is
 * reported as the smallest text that still fails.
 */

/**
 * The options of every fuzz test: a fixed seed, so a failure replays the same way on every machine, and a
 * budget for the whole test, shrinking included, past which it fails rather than runs on.
 */
export function fuzzOptions(numRuns: number): fc.Parameters<unknown> {
  return { numRuns, seed: 16, plugins: [fc.interruptAfterTimeLimit(120_000, { failOnInterrupt: true })] };
}

/** Any UTF-16 code unit: lone surrogates, controls, combining marks and private-use characters included. */
export const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));

// Sizes are 'large' so that runs reach the maximum lengths asked for (fast-check's default stays near ten items).

/** Any text: code units of any kind, code points of every plane, or printable graphemes of every script. */
export function anyText(maxLength: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: codeUnit, maxLength, size: 'large' }),
    fc.string({ unit: 'binary', maxLength, size: 'large' }),
    fc.string({ unit: 'grapheme', maxLength, size: 'large' }),
  );
}

/** Text of the given pieces, arbitrary code units and unicode strings between them, joined as they come. */
export function piecedText(pieces: readonly string[], maxPieces: number): fc.Arbitrary<string> {
  return fc
    .array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...pieces) }, { weight: 1, arbitrary: codeUnit }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) }), { maxLength: maxPieces, size: 'large' })
    .map((parts) => parts.join(''));
}

/** Words from `words`, space-separated: prose-like text that the matchers find something in. */
export function wordsText(words: readonly string[], minWords: number, maxWords: number): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...words), { minLength: minWords, maxLength: maxWords, size: 'large' }).map((chosen) => chosen.join(' '));
}

/** A short text repeated thousands of times, the shape that exposes backtracking and quadratic work. */
export function repeatedText(unit: fc.Arbitrary<string>, minTimes: number, maxTimes: number): fc.Arbitrary<string> {
  return fc.tuple(unit.filter((text) => text !== ''), fc.integer({ min: minTimes, max: maxTimes })).map(([text, times]) => text.repeat(times));
}

/** What `run` returned and how many milliseconds it took: a property asserts a bound, so a hang fails the run. */
export function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

/**
 * Milliseconds per call of `run` on ordinary input, measured in the test that uses it: one warm-up call, then
 * calls repeated until at least `minimumMs` have passed, so the figure is an average and not one noisy call.
 * Time bounds are multiples of it rather than fixed milliseconds, so a loaded machine slows both sides alike and
 * only a blow-up (a quadratic or exponential path on hostile input) breaks the bound.
 */
export function paceMs(run: () => unknown, minimumMs = 40): number {
  run();
  let calls = 0;
  const started = performance.now();
  do {
    run();
    calls++;
  } while (performance.now() - started < minimumMs);
  return (performance.now() - started) / calls;
}

/** Fails when `ms` exceeds `times` the ordinary pace, saying both. */
export function assertWithinPace(ms: number, pace: number, times: number, what: string): void {
  assert.ok(ms < times * pace, `${what} took ${ms.toFixed(1)} ms, ${(ms / pace).toFixed(0)}× the ${pace.toFixed(3)} ms of ordinary input (bound ${times}×)`);
}

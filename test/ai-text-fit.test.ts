import { test } from 'node:test';
import assert from 'node:assert/strict';
import { areaUnderRoc, ratesAtThreshold } from '../scripts/classifier-metrics.ts';
import { fitLogistic, predictProbability } from '../scripts/logistic-regression.ts';
import { seededRandom } from './helpers/seeded-random.ts';

test('AUROC counts ordered positive-negative pairs, ties as half', () => {
  assert.equal(areaUnderRoc([0.9, 0.8, 0.3, 0.1], [true, true, false, false]), 1);
  assert.equal(areaUnderRoc([0.1, 0.8, 0.3, 0.9], [true, true, false, false]), 0.25);
  assert.equal(areaUnderRoc([0.5, 0.5], [true, false]), 0.5);
});

test('rates at a threshold count scores at or above it', () => {
  assert.deepEqual(ratesAtThreshold([0.9, 0.6, 0.6, 0.2], [true, false, true, false], 0.6), { falsePositiveRate: 0.5, truePositiveRate: 1 });
});

test('the L2 logistic fit reaches its optimum: the penalised gradient is zero', () => {
  const random = seededRandom(7);
  const rows = Array.from({ length: 200 }, () => [random() * 2 - 1, random() * 2 - 1]);
  const labels = rows.map(([a, b]) => (random() < 1 / (1 + Math.exp(-(3 * a! - 2 * b!))) ? 1 : 0));
  const lambda = 0.1;
  const model = fitLogistic(rows, labels, lambda);
  const gradient = [0, 1].map((j) => rows.reduce((sum, row, n) => sum + (predictProbability(model, row) - labels[n]!) * row[j]!, 0) / rows.length + lambda * model.weights[j]!);
  const interceptGradient = rows.reduce((sum, row, n) => sum + predictProbability(model, row) - labels[n]!, 0);
  for (const value of [...gradient, interceptGradient]) assert.ok(Math.abs(value) < 1e-8, `gradient ${value}`);
  assert.ok(model.weights[0]! > 0 && model.weights[1]! < 0);
  // A stronger penalty shrinks the weights.
  const shrunk = fitLogistic(rows, labels, 10);
  assert.ok(Math.abs(shrunk.weights[0]!) < Math.abs(model.weights[0]!) / 5);
});

test('with more features than examples (a word profile) the fit still reaches its optimum, intercept unpenalised', () => {
  const random = seededRandom(11);
  const rows = Array.from({ length: 30 }, () => Array.from({ length: 80 }, () => random() * 2 - 1));
  const labels = rows.map((row) => (row[0]! - row[1]! + 0.5 * (random() - 0.5) > 0.3 ? 1 : 0));
  const lambda = 0.05;
  const model = fitLogistic(rows, labels, lambda);
  const residuals = rows.map((row, n) => predictProbability(model, row) - labels[n]!);
  const gradient = model.weights.map((weight, j) => rows.reduce((sum, row, n) => sum + residuals[n]! * row[j]!, 0) / rows.length + lambda * weight);
  const interceptGradient = residuals.reduce((sum, value) => sum + value, 0) / rows.length;
  for (const value of [...gradient, interceptGradient]) assert.ok(Math.abs(value) < 1e-8, `gradient ${value}`);
  assert.ok(model.weights[0]! > 0 && model.weights[1]! < 0);
});

/**
 * L2-regularised logistic regression fitted by Newton's method, with an unpenalised intercept. The feature
 * count may exceed the example count (a word or character profile of hundreds of columns over a few hundred
 * texts), so each Newton step is solved through the examples' Gram matrix (the Woodbury identity): its cost
 * grows with the square of the examples, not of the features.
 */
export interface LogisticModel {
  intercept: number;
  weights: number[];
}

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function predictProbability(model: LogisticModel, row: readonly number[]): number {
  return sigmoid(model.weights.reduce((sum, weight, i) => sum + weight * row[i]!, model.intercept));
}

/** Solves A x = b for a symmetric positive definite A by its Cholesky factor. */
function solveSymmetric(matrix: Float64Array[], vector: Float64Array): Float64Array {
  const size = vector.length;
  const lower = Array.from({ length: size }, () => new Float64Array(size));
  for (let i = 0; i < size; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = matrix[i]![j]!;
      for (let k = 0; k < j; k++) sum -= lower[i]![k]! * lower[j]![k]!;
      lower[i]![j] = i === j ? Math.sqrt(sum) : sum / lower[j]![j]!;
    }
  }
  const forward = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    let sum = vector[i]!;
    for (let k = 0; k < i; k++) sum -= lower[i]![k]! * forward[k]!;
    forward[i] = sum / lower[i]![i]!;
  }
  const solution = new Float64Array(size);
  for (let i = size - 1; i >= 0; i--) {
    let sum = forward[i]!;
    for (let k = i + 1; k < size; k++) sum -= lower[k]![i]! * solution[k]!;
    solution[i] = sum / lower[i]![i]!;
  }
  return solution;
}

/**
 * Minimises the mean log loss plus (lambda / 2) * |weights|^2 over rows (standardised features) and labels
 * (1 = positive class).
 */
export function fitLogistic(rows: readonly (readonly number[])[], labels: readonly number[], lambda: number, iterations = 50): LogisticModel {
  const count = rows.length;
  const width = rows[0]!.length;
  const gram = Array.from({ length: count }, () => new Float64Array(count));
  for (let i = 0; i < count; i++) {
    for (let j = 0; j <= i; j++) {
      let dot = 0;
      for (let k = 0; k < width; k++) dot += rows[i]![k]! * rows[j]![k]!;
      gram[i]![j] = dot;
      gram[j]![i] = dot;
    }
  }
  const times = (vector: ArrayLike<number>) => Float64Array.from(rows, (row) => row.reduce((sum, value, k) => sum + value * vector[k]!, 0));
  const transposeTimes = (vector: ArrayLike<number>) => {
    const result = new Float64Array(width);
    rows.forEach((row, n) => row.forEach((value, k) => (result[k]! += value * vector[n]!)));
    return result;
  };

  let intercept = 0;
  let weights = new Float64Array(width);
  for (let iteration = 0; iteration < iterations; iteration++) {
    const linear = times(weights);
    const curvature = new Float64Array(count); // p(1 - p) / count: the Hessian's per-example weights
    const residual = new Float64Array(count); // (p - label) / count
    for (let n = 0; n < count; n++) {
      const p = sigmoid(intercept + linear[n]!);
      curvature[n] = Math.max((p * (1 - p)) / count, 1e-12);
      residual[n] = (p - labels[n]!) / count;
    }
    // The Hessian's weight block M = lambda I + X' D X is inverted through the n x n system lambda I + D^1/2 X X' D^1/2.
    const root = curvature.map(Math.sqrt);
    const inner = Array.from({ length: count }, (_, i) => Float64Array.from(gram[i]!, (value, j) => root[i]! * value * root[j]! + (i === j ? lambda : 0)));
    const inverseM = (vector: Float64Array) => {
      const projected = times(vector).map((value, n) => root[n]! * value);
      const correction = transposeTimes(solveSymmetric(inner, projected).map((value, n) => root[n]! * value));
      return vector.map((value, k) => (value - correction[k]!) / lambda);
    };
    const gradientWeights = transposeTimes(residual).map((value, k) => value + lambda * weights[k]!);
    const gradientIntercept = residual.reduce((sum, value) => sum + value, 0);
    const cross = transposeTimes(curvature); // the Hessian's intercept-weight block X' D 1
    const curvatureTotal = curvature.reduce((sum, value) => sum + value, 0);
    // The intercept's step from the Schur complement of M, then the weights' step given it.
    const mGradient = inverseM(gradientWeights);
    const mCross = inverseM(cross);
    const crossDot = (vector: Float64Array) => cross.reduce((sum, value, k) => sum + value * vector[k]!, 0);
    const interceptStep = (gradientIntercept - crossDot(mGradient)) / (curvatureTotal - crossDot(mCross) + 1e-12);
    const weightStep = mGradient.map((value, k) => value - mCross[k]! * interceptStep);
    intercept -= interceptStep;
    weights = weights.map((value, k) => value - weightStep[k]!);
    if (Math.max(Math.abs(interceptStep), ...weightStep.map(Math.abs)) < 1e-10) break;
  }
  return { intercept, weights: [...weights] };
}

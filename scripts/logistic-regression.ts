/**
 * L2-regularised logistic regression fitted by Newton's method (iteratively reweighted least squares), for
 * the few standardised features of a small labelled set. The intercept is not penalised.
 */
export interface LogisticModel {
  intercept: number;
  weights: number[];
}

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function predictProbability(model: LogisticModel, row: readonly number[]): number {
  return sigmoid(model.weights.reduce((sum, weight, i) => sum + weight * row[i]!, model.intercept));
}

/** Solves A x = b by Gaussian elimination with partial pivoting (A is small, symmetric positive definite). */
function solve(matrix: number[][], vector: number[]): number[] {
  const size = vector.length;
  const augmented = matrix.map((row, i) => [...row, vector[i]!]);
  for (let column = 0; column < size; column++) {
    let pivot = column;
    for (let row = column + 1; row < size; row++) if (Math.abs(augmented[row]![column]!) > Math.abs(augmented[pivot]![column]!)) pivot = row;
    [augmented[column], augmented[pivot]] = [augmented[pivot]!, augmented[column]!];
    for (let row = column + 1; row < size; row++) {
      const factor = augmented[row]![column]! / augmented[column]![column]!;
      for (let k = column; k <= size; k++) augmented[row]![k]! -= factor * augmented[column]![k]!;
    }
  }
  const solution = new Array<number>(size).fill(0);
  for (let row = size - 1; row >= 0; row--) {
    let sum = augmented[row]![size]!;
    for (let k = row + 1; k < size; k++) sum -= augmented[row]![k]! * solution[k]!;
    solution[row] = sum / augmented[row]![row]!;
  }
  return solution;
}

/**
 * Minimises the mean log loss plus (lambda / 2) * |weights|^2 over rows (standardised features) and labels
 * (1 = positive class).
 */
export function fitLogistic(rows: readonly (readonly number[])[], labels: readonly number[], lambda: number, iterations = 50): LogisticModel {
  const width = rows[0]!.length + 1; // column 0 is the intercept
  const count = rows.length;
  let beta = new Array<number>(width).fill(0);
  for (let iteration = 0; iteration < iterations; iteration++) {
    const gradient = new Array<number>(width).fill(0);
    const hessian = Array.from({ length: width }, () => new Array<number>(width).fill(0));
    rows.forEach((row, n) => {
      const x = [1, ...row];
      const p = sigmoid(x.reduce((sum, value, i) => sum + value * beta[i]!, 0));
      const weight = p * (1 - p);
      for (let i = 0; i < width; i++) {
        gradient[i]! += ((p - labels[n]!) * x[i]!) / count;
        for (let j = 0; j < width; j++) hessian[i]![j]! += (weight * x[i]! * x[j]!) / count;
      }
    });
    for (let i = 1; i < width; i++) {
      gradient[i]! += lambda * beta[i]!;
      hessian[i]![i]! += lambda;
    }
    hessian[0]![0]! += 1e-9; // keeps the intercept's row solvable when every prediction saturates
    const step = solve(hessian, gradient);
    beta = beta.map((value, i) => value - step[i]!);
    if (Math.max(...step.map(Math.abs)) < 1e-10) break;
  }
  return { intercept: beta[0]!, weights: beta.slice(1) };
}

/** Area under the ROC curve: the chance a random positive scores above a random negative (ties count half). */
export function areaUnderRoc(scores: readonly number[], positives: readonly boolean[]): number {
  let pairs = 0;
  let wins = 0;
  scores.forEach((positiveScore, i) => {
    if (!positives[i]) return;
    scores.forEach((negativeScore, j) => {
      if (positives[j]) return;
      pairs++;
      wins += positiveScore > negativeScore ? 1 : positiveScore === negativeScore ? 0.5 : 0;
    });
  });
  if (pairs === 0) throw new Error('AUROC needs at least one positive and one negative example.');
  return wins / pairs;
}

/** Share of negatives scoring at or above the threshold, and of positives (true-positive rate). */
export function ratesAtThreshold(scores: readonly number[], positives: readonly boolean[], threshold: number): { falsePositiveRate: number; truePositiveRate: number } {
  const flagged = (wanted: boolean) => {
    const group = scores.filter((_, i) => positives[i] === wanted);
    return group.filter((score) => score >= threshold).length / group.length;
  };
  return { falsePositiveRate: flagged(false), truePositiveRate: flagged(true) };
}

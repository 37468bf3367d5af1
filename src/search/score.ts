/**
 * Scores are rounded to 6 decimals before they are compared: float sums that differ only in their
 * last bits (an order of additions, a platform) must not reorder results, and two documents that
 * score the same to 6 decimals are a tie, broken by key.
 */
export function roundScore(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

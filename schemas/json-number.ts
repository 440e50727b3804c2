/**
 * True for a number JSON carries exactly to every reader: finite (JSON has no form for
 * Infinity or NaN), not -0 (carried as 0), and within ±(2^53 − 1), where a JavaScript reader
 * can still tell it from its neighbours. `findJsonHazards` refuses every other number, and
 * the precompiled checks that stand in for it on hot paths use this same test.
 */
export function isExactJsonNumber(n: number): boolean {
  return Number.isFinite(n) && !Object.is(n, -0) && Math.abs(n) <= Number.MAX_SAFE_INTEGER;
}

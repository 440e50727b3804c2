/** A number JSON carries exactly to every reader: finite, not -0 (read back as 0), within ±(2^53 − 1). `findJsonHazards` uses it. */
export function isExactJsonNumber(n: number): boolean {
  return Number.isFinite(n) && !Object.is(n, -0) && Math.abs(n) <= Number.MAX_SAFE_INTEGER;
}

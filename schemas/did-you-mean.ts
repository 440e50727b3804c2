/** Damerau–Levenshtein distance: a swap of two neighbours counts as one edit. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[rows - 1][cols - 1];
}

/** The candidate `input` most likely mistypes, or undefined: within a third of its length in edits (1 to 3), ignoring case. */
export function closestMatch(input: string, candidates: Iterable<string>): string | undefined {
  const wanted = input.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    const allowed = Math.min(3, Math.max(1, Math.floor(candidate.length / 3)));
    if (distance > allowed) continue;
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  return best?.candidate;
}

/** `" (did you mean X?)"`, or `""` when nothing is close. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const match = closestMatch(input, candidates);
  return match === undefined ? "" : ` (did you mean ${match}?)`;
}

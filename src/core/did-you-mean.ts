/**
 * Edit distance with adjacent swaps counted as one edit (optimal string alignment), so
 * `respnose` is one edit from `response`, like `respnse`.
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[rows - 1]![cols - 1]!;
}

/** Candidates longer than this are not compared: a suggestion is for typos, not for essays. */
const MAX_COMPARED_LENGTH = 200;

/**
 * The candidate a user most likely meant by `input`, or `undefined` when none is close:
 * the same name in another case first (`GithubDown` → `githubDown`), then the one fewest
 * edits away, allowing about one edit per three characters (`respnse` → `response`,
 * `bdy` → `body`). Ties go to the candidate listed first.
 *
 * @example
 * didYouMean('sequnce', ['response', 'sequence']); // 'sequence'
 */
export function didYouMean(input: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates].filter((candidate) => candidate !== input);
  const lower = input.toLowerCase();
  const sameLetters = list.find((candidate) => candidate.toLowerCase() === lower);
  if (sameLetters !== undefined) return sameLetters;
  if (input.length > MAX_COMPARED_LENGTH) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of list) {
    if (candidate.length > MAX_COMPARED_LENGTH) continue;
    const allowed = Math.max(1, Math.floor(Math.max(input.length, candidate.length) / 3));
    // Cheap bound first: the length difference alone costs that many edits.
    if (Math.abs(candidate.length - input.length) > allowed) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= allowed && distance < candidate.length && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

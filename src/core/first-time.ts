/**
 * A check that answers `true` the first time it sees a key and `false` after, for "logged once
 * per test / endpoint / problem" messages. It remembers at most `max` keys and then starts over:
 * keys with IDs in them (test IDs, URLs) would otherwise grow it for as long as the app runs, and
 * a key forgotten that way is only said once more.
 *
 * @example
 * const firstTime = firstTimeFor();
 * if (firstTime(testId)) logger.warn(`… (logged once per test)`);
 */
export function firstTimeFor(max = 1000): (key: string) => boolean {
  const seen = new Set<string>();
  return (key) => {
    if (seen.has(key)) return false;
    if (seen.size >= max) seen.clear();
    seen.add(key);
    return true;
  };
}

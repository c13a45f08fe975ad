// The benches' plain-text tables: the first column left-aligned, the others right-aligned, a rule
// under the header row. bench/run.js, bench/compare-builds.js and bench/lib/standalone-load.js print with it.

/** @param {unknown[][]} rows the header row first */
export function textTable(rows) {
  const widths = [];
  for (const row of rows) row.forEach((c, i) => (widths[i] = Math.max(widths[i] || 0, String(c).length)));
  return rows
    .map((row, ri) => {
      const line = row.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
      return ri === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
    })
    .join('\n');
}

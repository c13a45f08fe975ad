// The V8 flags every micro-benchmark child runs with (bench/run.js's paired and unpaired micro,
// bench/compare-builds.js).
//
// Why: a micro child's heap is small (~20 MB), and where V8 sets its first old-space limit decides
// the process's garbage-collection regime for its whole life. Below the limit, scavenges free
// nearly everything (≈ 80 per 60,000 calls, one mark-compact); past it, incremental marking runs
// much of the time, objects allocated meanwhile survive into old space (≈ 30 scavenges that
// promote 2–3 MB each, 4–6 mark-compacts), and the same code's calls take 15–25% longer, their
// mean 50% longer. Which regime a process falls into depends on how much it loaded before the
// timing, not on the code timed: bisecting a 1.14× undici.request gap between two builds
// (2026-11-28) landed on a commit that changed no code on that call's path; the harness's journal
// off moved one build into the fast regime but not another, and objects loaded before the timing
// changed a build's scavenge count (79 to 30) without changing the code timed.
// A fixed initial old space puts every child below the limit, so a comparison times the calls.
export const MICRO_EXEC_ARGV = Object.freeze(['--initial-old-space-size=64']);

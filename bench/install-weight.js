#!/usr/bin/env node
// Install weight beside Express (issue 24, item 11; issue 38, item 5): the packed package
// installed with `npm install --omit=dev` into an empty folder beside `express`, against
// `express` alone, for this build and the previous one (the last on @mswjs/interceptors 0.41,
// bench/previous-build.js), in the same run, with the same npm and registry.
//
//   npm run build && node bench/install-weight.js    a minute or so (npm's cache makes it faster)
//
// Each side is packed with `npm pack --ignore-scripts` from its folder (this repository's dist/
// as built, so run `npm run build` first; the previous build's folder as bench/previous-build.js
// left it), then installed into a folder of its own under the system's temporary folder, which
// is removed afterwards. Counted: the packages npm installed (the entries of
// node_modules/.package-lock.json, nested copies included) and node_modules on disk (`du -sk`).
// The package's share is what it adds to express alone. Nothing is timed.
//
// Environment:
//   BENCH_WEIGHT_EXPRESS=spec   what "beside Express" installs (default `express`)
//   BENCH_WEIGHT_OUT=path       where the JSON goes (default bench/results/install-weight.json)
//   BENCH_PREVIOUS_HARNESS=dir  the previous build's folder (see bench/previous-build.js)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PREVIOUS_COMMIT, previousHarnessDir } from './lib/harness-glue.js';
import { install, interceptorsOf, npm, pack } from './lib/npm-weight.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const rootDir = path.dirname(benchDir);
const EXPRESS = process.env.BENCH_WEIGHT_EXPRESS || 'express';
const OUT = process.env.BENCH_WEIGHT_OUT || path.join(benchDir, 'results', 'install-weight.json');
const log = (line) => process.stderr.write(`${line}\n`);

function main() {
  const previousDir = previousHarnessDir();
  if (!fs.existsSync(path.join(previousDir, 'dist', 'index.js'))) {
    throw new Error(`the previous build (${PREVIOUS_COMMIT.slice(0, 7)}, @mswjs/interceptors 0.41) is not at ${previousDir}: run \`node bench/previous-build.js\` first`);
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'scenario-harness-weight-'));
  try {
    const current = pack(rootDir, work);
    const previous = pack(previousDir, work);
    log(`packed ${path.basename(current)} (this build, interceptors ${interceptorsOf(rootDir)}) and ${path.basename(previous)} (${PREVIOUS_COMMIT.slice(0, 7)}, interceptors ${interceptorsOf(previousDir)})`);
    const alone = install(work, 'express', [EXPRESS]);
    log(`express alone: ${alone.packages} packages, ${alone.mib.toFixed(1)} MiB`);
    const rows = [];
    for (const [label, tarball] of [
      ['this build', current],
      ['0.41 build', previous],
    ]) {
      const r = install(work, label.replace(/\W+/g, '-'), [EXPRESS, tarball]);
      log(`express + ${label}: ${r.packages} packages, ${r.mib.toFixed(1)} MiB (interceptors ${r.interceptors})`);
      rows.push({ ...r, label, share: { packages: r.packages - alone.packages, mib: r.mib - alone.mib } });
    }
    const [now, before] = rows;
    const table = [
      ['beside express (npm install --omit=dev)', 'packages', 'node_modules MiB (du -sk)', 'share: packages', 'share: MiB', '@mswjs/interceptors'],
      [`express ${alone.express} alone`, String(alone.packages), alone.mib.toFixed(1), '', '', ''],
      ...rows.map((r) => [`+ scenario-harness, ${r.label}`, String(r.packages), r.mib.toFixed(1), String(r.share.packages), r.share.mib.toFixed(1), r.interceptors ?? '—']),
    ];
    const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
    console.log(`install weight beside express — npm ${npm(['--version'], work)}, node ${process.version}`);
    console.log(table.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')).join('\n'));
    // Where the two differ: packages only in one, another version, or another size.
    const keys = [...new Set([...Object.keys(now.each), ...Object.keys(before.each)])].sort();
    const differences = keys
      .map((key) => ({ name: key.replace(/^node_modules\//, '').replace(/\/node_modules\//g, ' > '), now: now.each[key], before: before.each[key] }))
      .filter(({ now: a, before: b }) => !a || !b || a.version !== b.version || a.kib !== b.kib);
    if (differences.length) {
      const side = (x) => (x ? `${x.version} ${x.kib} KiB` : 'absent');
      console.log('where they differ (each package without the packages nested in it): ' + differences.map((d) => `${d.name} ${side(d.before)} → ${side(d.now)}`).join('; '));
    }
    const dPackages = now.packages - before.packages;
    const dMib = now.mib - before.mib;
    const met = dPackages <= 0 && dMib <= 0;
    const signed = (x, digits = 0) => `${x >= 0 ? '+' : ''}${x.toFixed(digits)}`;
    const ownKey = 'node_modules/scenario-harness';
    const ownDeltaKib = (now.each[ownKey]?.kib ?? 0) - (before.each[ownKey]?.kib ?? 0);
    console.log(
      `this build − the 0.41 build: ${signed(dPackages)} packages, ${signed(dMib, 2)} MiB (${signed(dMib * 1024)} KiB, of which the package's own files ${signed(ownDeltaKib)} KiB) — ` +
        `target: no more packages or MiB than before: ${met ? 'met' : 'NOT MET'}`,
    );
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    fs.writeFileSync(OUT, `${JSON.stringify({ node: process.version, express: EXPRESS, alone, rows, differences, delta: { packages: dPackages, mib: dMib }, met }, null, 2)}\n`);
    log(`results: ${path.relative(process.cwd(), OUT) || OUT}`);
    if (!met) process.exitCode = 1;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main();

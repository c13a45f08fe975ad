/**
 * Docs cannot drift from the code: every whole file that README.md, CONTRIBUTING.md or a guide
 * in docs/ shows is a real file under examples/, marked `<!-- file: examples/… -->` right before
 * its code block, and the block is that file, byte for byte. The files themselves are
 * type-checked by `npm run typecheck` (tsconfig.json includes examples/) and run by their own
 * tests (examples/**\/*.test.ts, test/docs/framework-servers.test.ts, test/newcomer/).
 * `node scripts/sync-doc-snippets.mjs` copies the files into the docs after an edit.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { codeBlocks, documents, prose, read, ROOT } from './markdown.js';

const docs = documents();

test.each(docs)('every file %s shows is the example file, verbatim', (doc) => {
  for (const block of codeBlocks(read(doc)).filter((block) => block.file !== undefined)) {
    expect(existsSync(join(ROOT, block.file!)), `${doc}:${block.line} names ${block.file}, which does not exist`).toBe(true);
    expect(block.body, `${doc}:${block.line} shows ${block.file}`).toBe(read(block.file!));
  }
});

test.each(docs)('%s shows no whole file without its marker', (doc) => {
  // A block that starts like a module and exports something is a whole file: it must come from examples/.
  const unmarked = codeBlocks(read(doc)).filter(
    (block) =>
      block.file === undefined &&
      /^(ts|tsx|js|mjs)$/.test(block.lang) &&
      /^import /.test(block.body.replace(/^(\/\/.*\n|\s*\n)+/, '')) &&
      /^export (const|default|async function|function)/m.test(block.body),
  );
  expect(unmarked.map((block) => `${doc}:${block.line}`)).toEqual([]);
});

/** Example files a guide shows, or that a shown file needs next to it. */
const SHOWN_DIRS = ['examples/quick-start', 'examples/frameworks', 'examples/recipes', 'examples/client', 'examples/llm-chat', 'examples/live-prices'];

test('every source file of the guides\' examples is shown in a guide (nothing in them that no guide explains)', () => {
  const shown = new Set(docs.flatMap((doc) => codeBlocks(read(doc)).flatMap((block) => (block.file === undefined ? [] : [block.file]))));
  const under = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? under(join(dir, entry.name)) : [relative(ROOT, join(ROOT, dir, entry.name))]));
  const files = SHOWN_DIRS.flatMap((dir) => under(dir));
  // examples/frameworks/scenarios.ts is the quick start's, checked below.
  expect(files.filter((file) => !shown.has(file) && file !== 'examples/frameworks/scenarios.ts')).toEqual([]);
});

test('the framework servers use the quick start\'s scenarios.ts, unchanged', () => {
  expect(read('examples/frameworks/scenarios.ts')).toBe(read('examples/quick-start/scenarios.ts'));
  expect(read('examples/nextjs/lib/scenarios.ts')).toBe(read('examples/quick-start/scenarios.ts'));
});

/**
 * What a user of the npm package has: the README and the guides speak of it only. The
 * repository's own folders, scripts and the shared specification belong in CONTRIBUTING.md.
 */
const REPOSITORY_ONLY = [/\bexamples\//, /\bbench\//, /\bdecisions\//, /\bSPEC\b/, /shared folder/i, /\bnpm run (bench|soak|overhead)\b/, /(?<![\w.-])test\/[a-z]/, /\bsrc\/(core|adapters|client|playwright|redis)\//, /\.pack-test/];

test.each(docs.filter((doc) => doc !== 'CONTRIBUTING.md'))('%s speaks only of what the npm package gives its users', (doc) => {
  const text = read(doc).replace(/<!--[\s\S]*?-->/g, '');
  const found = REPOSITORY_ONLY.flatMap((pattern) => {
    const match = pattern.exec(text);
    return match === null ? [] : [`${match[0]} (line ${text.slice(0, match.index).split('\n').length})`];
  });
  expect(found).toEqual([]);
});

test('the README is a front door: at most 300 lines, and it links to every guide', () => {
  const readme = read('README.md');
  expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  const guides = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'));
  expect(guides.filter((name) => !readme.includes(`](docs/${name}`))).toEqual([]);
  expect(prose(readme)).not.toMatch(/SPEC/);
});

#!/usr/bin/env node
/**
 * Copies every example file into the docs that show it: in README.md, CONTRIBUTING.md and
 * docs/**, the code block right after `<!-- file: examples/… -->` becomes that file's content
 * (a marker with no block after it gets one). test/docs/snippets.test.ts fails until this ran.
 *
 * Usage: node scripts/sync-doc-snippets.mjs
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const LANGS = { '.ts': 'ts', '.tsx': 'tsx', '.js': 'js', '.mjs': 'js', '.json': 'json', '.yaml': 'yaml', '.yml': 'yaml' };

const under = (dir) =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? under(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );

for (const doc of ['README.md', 'CONTRIBUTING.md', ...under('docs')]) {
  const lines = readFileSync(join(root, doc), 'utf8').split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    out.push(lines[i]);
    const marker = /^<!-- file: (\S+) -->$/.exec(lines[i]);
    if (marker === null) continue;
    const content = readFileSync(join(root, marker[1]), 'utf8').replace(/\n$/, '');
    const fence = /^```(\S*)$/.exec(lines[i + 1] ?? '');
    if (fence !== null) {
      let end = i + 2;
      while (end < lines.length && lines[end] !== '```') end++;
      out.push(lines[i + 1], content, '```');
      i = end;
    } else {
      out.push(`\`\`\`${LANGS[extname(marker[1])] ?? ''}`, content, '```');
    }
  }
  const text = out.join('\n');
  if (text !== lines.join('\n')) {
    writeFileSync(join(root, doc), text);
    console.log(`updated ${doc}`);
  }
}

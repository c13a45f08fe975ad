/**
 * Issue 23, item 5: URL globs and journal filters are compiled to linear-time matchers
 * (src/core/engine/glob-matcher.ts; test/hardening/glob-linear-time.test.ts). The guides that
 * document them must say so, since "use a glob, not a RegExp" is the advice they give.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

test('the URL patterns section says matching is linear in the URL’s length', () => {
  const section = read('docs/mock-format.md').split('## URL patterns')[1]!.split('\n## ')[0]!;
  expect(section).toMatch(/linear in the URL's length/);
});

test('the journal’s url filter says it is matched in linear time', () => {
  const filters = read('docs/journal.md').match(/Filters \(all optional[\s\S]*?\n\n/)![0];
  expect(filters).toMatch(/linear in the URL's length/);
});

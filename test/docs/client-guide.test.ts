/**
 * docs/client.md shows whole files from examples/client; this runs them (the example test file's
 * tests run here) and checks the guide shows them as they are, so the guide cannot drift.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import '../../examples/client/profile.test.js';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

test('every whole file the client guide shows is the example file, verbatim', () => {
  const guide = read('docs/client.md');
  const blocks = [...guide.matchAll(/```ts\n(\/\/ (examples\/client\/[\w.-]+)\n[\s\S]*?)```/g)];
  expect(blocks.map(([, , path]) => path)).toEqual(['examples/client/scenarios.ts', 'examples/client/app.ts', 'examples/client/profile.test.ts']);
  for (const [, body, path] of blocks) expect(body, path).toBe(read(path!));
});

test('every relative link in the guides resolves', () => {
  for (const doc of ['docs/client.md', 'docs/troubleshooting-errors.md', 'docs/journal.md']) {
    for (const [, target] of read(doc).matchAll(/\]\((?!https?:|#)([^)#\s]+)(?:#[^)]*)?\)/g)) {
      expect(() => read(new URL(target!, new URL(doc, ROOT)).pathname.slice(new URL(ROOT).pathname.length)), `${doc} → ${target}`).not.toThrow();
    }
  }
});

/**
 * docs/record-and-import.md describes the importer's output and the converter's default lists;
 * these checks keep it from drifting from the code.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { importOpenApi } from '../../src/import/import-openapi.js';
import { VOLATILE_BODY_KEYS, VOLATILE_QUERY_PARAMS, VOLATILE_RESPONSE_HEADERS } from '../../src/record/volatile-names.js';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
const guide = read('docs/record-and-import.md');

test('the table of scenario IDs is what importing the payments fixture gives', async () => {
  const { ids } = await importOpenApi(fileURLToPath(new URL('test/import/fixtures/payments-openapi30.yaml', ROOT)), { name: 'payments' });
  const table = [...guide.matchAll(/^\| `([^`]+)` \|/gm)].map(([, id]) => id);
  expect(table).toEqual(ids);
});

test('the reference lists every default volatile name', () => {
  const reference = guide.slice(guide.indexOf('## Reference: the default lists'));
  for (const name of [...VOLATILE_QUERY_PARAMS, ...VOLATILE_BODY_KEYS, ...VOLATILE_RESPONSE_HEADERS]) expect(reference, name).toContain(`\`${name}\``);
});

test('every relative link in the guide resolves, anchors included', () => {
  const anchors = new Set([...guide.matchAll(/^#+ (.+)$/gm)].map(([, title]) => title!.toLowerCase().replace(/[^\w\s-]/g, '').replace(/\s/g, '-')));
  for (const [, target, anchor] of guide.matchAll(/\]\((?!https?:)([^)#\s]*)(?:#([^)]*))?\)/g)) {
    if (target === '') expect(anchors.has(anchor!), `#${anchor}`).toBe(true);
    else expect(() => read(new URL(target!, new URL('docs/record-and-import.md', ROOT)).pathname.slice(new URL(ROOT).pathname.length)), target).not.toThrow();
  }
});

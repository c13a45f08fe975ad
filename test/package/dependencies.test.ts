/**
 * Every dependency a user installs is weighed in decisions/install-weight.md (issue 24, item 11):
 * adding one, or dropping one, means updating the record and its measured figures too.
 * What a running app loads of them is pinned in test/disabled/enabled-false.test.ts.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const { dependencies } = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { dependencies: Record<string, string> };
const record = readFileSync(fileURLToPath(new URL('decisions/install-weight.md', ROOT)), 'utf8');
/** The first cell of each row of the record's per-dependency table: | `name` | packages | MB | … */
const weighed = [...record.matchAll(/^\| `([^`]+)` \| \d+ \|/gm)].map(([, name]) => name);

test('the install-weight record weighs exactly the package\'s dependencies', () => {
  expect(weighed.toSorted()).toEqual(Object.keys(dependencies).toSorted());
});

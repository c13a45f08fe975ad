/**
 * Issue 23, item 12: docs/journal.md and docs/reliability-and-security.md listed the header names
 * redacted before the platform keys, `jwt` and `assertion` were added. These checks keep both
 * lists from drifting from src/core/journal/redact-headers.ts.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { isSecretHeaderName } from '../../src/core/journal/redact-headers.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const GUIDES = {
  'docs/journal.md': read('docs/journal.md').match(/\*\*Redaction\.\*\*[\s\S]*?\n\n/)![0],
  'docs/reliability-and-security.md': read('docs/reliability-and-security.md').match(/Header values are redacted by default[\s\S]*?redactHeaders/)![0],
};
/** The names the audit found unredacted, each redacted now: the guides must say so. */
const ADDED = ['ocp-apim-subscription-key', 'x-functions-key', 'x-auth-key', 'dd-application-key', 'x-master-key', 'jwt', 'assertion', 'api_key'];

test.each(Object.entries(GUIDES))('%s names every kind of header redacted now', (_path, text) => {
  for (const name of ADDED) expect(text, name).toContain(`\`${name}\``);
});

test.each(Object.entries(GUIDES))('every full header name %s gives as redacted is redacted', (_path, text) => {
  const names = [...text.matchAll(/`([a-z][a-z0-9-]*-[a-z0-9-]+)`/g)].map(([, name]) => name!).filter((name) => name !== 'idempotency-key');
  expect(names.length).toBeGreaterThan(5);
  for (const name of names) expect(isSecretHeaderName(name), name).toBe(true);
});

import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
// @ts-expect-error -- a plain ESM script without types; it exports the generator it runs.
import { renderInspectorModule } from '../../scripts/build-inspector.mjs';
import { INSPECTOR_PAGE } from './inspector-page.js';

const html = readFileSync(new URL('./inspector-page.html', import.meta.url), 'utf8');

test('inspector-page.ts is generated from inspector-page.html as it is now (run npm run inspector after editing the page)', () => {
  expect(readFileSync(new URL('./inspector-page.ts', import.meta.url), 'utf8')).toBe((renderInspectorModule as (html: string) => string)(html));
  expect(INSPECTOR_PAGE.html).toBe(html);
});

test('the page loads nothing from elsewhere, and its policy allows its own inline style and script only', () => {
  expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:)?\/\//i);
  expect(html).not.toMatch(/@import|url\(/);
  expect(INSPECTOR_PAGE.csp).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+'; connect-src 'self';/);
});

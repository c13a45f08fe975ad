import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { importLazily } from './import-lazily.js';

const fail = (reason: string, remedy: string, cause?: unknown) => Object.assign(new Error(`${reason}. ${remedy}`), { cause });

/** A module file of `source`, imported the way Node imports it (no transform). */
function moduleOf(source: string): () => Promise<unknown> {
  const file = join(mkdtempSync(join(tmpdir(), 'import-lazily-')), 'module.mjs');
  writeFileSync(file, source);
  const url = pathToFileURL(file).href;
  return () => import(/* @vite-ignore */ url);
}

test('hands over the module it loaded', async () => {
  await expect(importLazily(moduleOf('export const answer = 42;'), 'answer', fail)).resolves.toMatchObject({ answer: 42 });
});

test('a package that is not installed is named, with the command that checks it', async () => {
  const error = await importLazily(moduleOf("import 'not-installed-package-xyz';"), 'not-installed-package-xyz', fail).catch((caught: Error) => caught);
  expect((error as Error).message).toMatch(/^"not-installed-package-xyz" could not be found \(Cannot find package 'not-installed-package-xyz' .*\)\. Check that it is installed where scenario-harness is: npm ls not-installed-package-xyz\.$/);
});

test('a chunk evaluated before one it needs ("before initialization") is put down to the bundler, with what to change', async () => {
  const error = (await importLazily(moduleOf('guard.install(); const guard = {};'), 'guarded', fail).catch((caught: Error) => caught)) as Error;
  expect(error.message).toContain(`"guarded" failed to load (Cannot access 'guard' before initialization). The app's bundler split the package into chunks that depend on each other. Keep scenario-harness out of the server bundle`);
  expect(error.cause).toBeInstanceOf(ReferenceError);
});

test('any other failure is given as it is', async () => {
  const error = (await importLazily(moduleOf("throw new Error('boom');"), 'boom-package', fail).catch((caught: Error) => caught)) as Error;
  expect(error.message).toBe(`"boom-package" failed to load (boom). Check that "boom-package" loads on its own: node -e "import('boom-package')".`);
});

test('leaves no process listener behind', async () => {
  const before = process.listenerCount('beforeExit');
  await Promise.all([importLazily(moduleOf('export {};'), 'a', fail), importLazily(moduleOf('export {};'), 'b', fail)]);
  expect(process.listenerCount('beforeExit')).toBe(before);
});

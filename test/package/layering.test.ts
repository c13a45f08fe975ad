/**
 * The core stands alone (issue 24): nothing under src/core imports the layers that plug into it
 * (the inspector, the recorder's converter, the adapters, the CLI, the server). They reach the
 * core through interfaces it owns (HarnessExtensions), wired in src/harness.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const SRC = resolve(import.meta.dirname, '..', '..', 'src');
const CORE = join(SRC, 'core');
/** `from '…'`, `import('…')` and `import '…'` specifiers that start with a dot. */
const RELATIVE_IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

test('no module under src/core imports a module outside it', () => {
  const upward: string[] = [];
  for (const file of sourceFiles(CORE)) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = resolve(file, '..', specifier!);
      if (relative(CORE, target).startsWith('..')) upward.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
    }
  }
  expect(upward).toEqual([]);
});

/**
 * Adapters sit below register (issue 39, item 4): the process-tree session host and client that
 * register and the Nuxt module both use are a store, under src/core/store/process-tree.
 */
test('no adapter imports a module of register', () => {
  const ADAPTERS = join(SRC, 'adapters');
  const REGISTER = join(SRC, 'register');
  const upward: string[] = [];
  for (const file of sourceFiles(ADAPTERS)) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = resolve(file, '..', specifier!);
      if (!relative(REGISTER, target).startsWith('..')) upward.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
    }
  }
  expect(upward).toEqual([]);
});

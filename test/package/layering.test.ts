/**
 * The core stands alone (issue 24): nothing under src/core imports the layers that plug into it
 * (the inspector, the recorder's converter, the adapters, the CLI, the server). Capabilities
 * reach the core as parts (src/core/parts/harness-part.ts), listed in src/harness-parts.ts.
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

/** The folders that hold a part: each has one `*-part.ts`, the part's definition (issue 39, item 1). */
function partFolders(): string[] {
  const all = readdirSync(SRC, { withFileTypes: true, recursive: true });
  return [...new Set(all.filter((entry) => entry.isFile() && entry.name.endsWith('-part.ts') && entry.name !== 'harness-part.ts').map((entry) => entry.parentPath))];
}

/**
 * A capability is a part, and parts meet only in the core's seam (issue 39, item 1): no module of
 * one part's folder imports a module of another's, so each can be read, changed or removed alone.
 */
test('no part imports another part', () => {
  const folders = partFolders();
  expect(folders.map((folder) => relative(SRC, folder)).sort()).toEqual(['browser', 'core/journal', 'core/spec', 'core/test-mocks', 'inspector', 'parts/contracts', 'parts/recording', 'parts/sockets', 'parts/streams']);
  const crossing: string[] = [];
  for (const folder of folders) {
    for (const file of sourceFiles(folder)) {
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
        const target = resolve(file, '..', specifier!);
        const other = folders.find((candidate) => candidate !== folder && !relative(candidate, target).startsWith('..'));
        if (other !== undefined) crossing.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
      }
    }
  }
  expect(crossing).toEqual([]);
});

/** Every part the package assembles is defined in a part folder's `*-part.ts`, so the rule above sees it. */
test('every part in src/harness-parts.ts comes from a part folder', () => {
  const list = readFileSync(join(SRC, 'harness-parts.ts'), 'utf8');
  const imported = [...list.matchAll(/import \{ (\w+_PART) \} from '\.\/([^']+)'/g)].map(([, name, path]) => [name, path]);
  expect(imported.length).toBeGreaterThanOrEqual(7);
  for (const [name, path] of imported) expect(path, name).toMatch(/-part\.js$/);
});

/**
 * Every module imports from its own layer or a lower one (CONTRIBUTING, "Where things live"), as
 * scripts/code-map.mjs counts it: the last upward import, the `edge-light` main entry reaching
 * into the Next.js adapter for its inert harness, went when that harness moved to src/edge.
 */
test('no module imports from a higher layer', async () => {
  const { execFileSync } = await import('node:child_process');
  const map = JSON.parse(execFileSync(process.execPath, [join(SRC, '..', 'scripts', 'code-map.mjs'), '--json'], { encoding: 'utf8' })) as { upwardImports: unknown[] };
  expect(map.upwardImports).toEqual([]);
});

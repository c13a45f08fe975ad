import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { links } from '../docs/markdown.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Record<string, unknown>;
const pkg = readJson('package.json') as { exports: Record<string, unknown>; name: string };
const subpaths = Object.keys(pkg.exports).filter((key) => key !== './package.json');
const specifierOf = (subpath: string) => (subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`);

// Inside the repository, so optional peers (express, next, …) resolve from its node_modules
// the way they would from a user's project that has them installed.
const CONSUMER = join(ROOT, '.pack-test');

beforeAll(async () => {
  rmSync(CONSUMER, { recursive: true, force: true });
  mkdirSync(CONSUMER, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--pack-destination', CONSUMER, '--json'], { cwd: ROOT });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  writeFileSync(join(CONSUMER, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', `./${filename}`], { cwd: CONSUMER });
}, 180_000);

afterAll(() => rmSync(CONSUMER, { recursive: true, force: true }));

/** The paths `npm pack` puts in the tarball (listed once, for every test that reads them). */
let shipped: Promise<string[]> | undefined;
function shippedPaths(): Promise<string[]> {
  shipped ??= run('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT }).then(({ stdout }) => (JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((file) => file.path));
  return shipped;
}

test('every subpath in the exports map has a source entry, a tsconfig path and a built file', () => {
  const entries = readJson('source-entries.json');
  const paths = (readJson('tsconfig.json').compilerOptions as { paths: Record<string, string[]> }).paths;
  const specifiers = subpaths.map(specifierOf).sort();
  expect(Object.keys(entries).filter((key) => key !== '//').sort()).toEqual(specifiers);
  expect(Object.keys(paths).sort()).toEqual(specifiers);
  for (const subpath of subpaths) {
    const specifier = specifierOf(subpath);
    const source = entries[specifier] as string;
    expect(existsSync(join(ROOT, source)), source).toBe(true);
    expect(paths[specifier]).toEqual([`./${source}`]);
    // A data file (schema.json) is exported as it is, from the package root.
    if (subpath.endsWith('.json')) {
      expect(pkg.exports[subpath]).toBe(`./${source}`);
      continue;
    }
    const target = pkg.exports[subpath] as { types: string; default: string };
    expect(target.default).toBe(`./${source.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js')}`);
    expect(target.types).toBe(target.default.replace(/\.js$/, '.d.ts'));
  }
});

test.each(subpaths)('the packed tarball exports %s and it imports in a fresh project', async (subpath) => {
  const specifier = specifierOf(subpath);
  const attributes = subpath.endsWith('.json') ? ", { with: { type: 'json' } }" : '';
  const script = `const m = await import(${JSON.stringify(specifier)}${attributes}); console.log(JSON.stringify(Object.keys(m).sort()));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: CONSUMER });
  const names = JSON.parse(stdout) as string[];
  // register is imported for what it does (`node --import scenario-harness/register`): no exports, and off without HARNESS_ENABLED.
  if (subpath === './register') expect(names).toEqual([]);
  else expect(names.length).toBeGreaterThan(0);
  if (subpath === '.') expect(names).toEqual(expect.arrayContaining(['createHarness', 'defineScenarios', 'loadScenarios', 'TEST_ID_HEADER', 'DEFAULT_TEST_ID', 'HarnessError']));
  if (subpath === './schema.json') expect(names).toEqual(['default']);
});

test('CommonJS apps can require() the package (no top-level await)', async () => {
  const { stdout } = await run(process.execPath, ['-e', `console.log(typeof require('${pkg.name}').createHarness)`], { cwd: CONSUMER });
  expect(stdout.trim()).toBe('function');
});

test('the tarball ships the build and no tests or sources', async () => {
  const paths = await shippedPaths();
  expect(paths).toContain('dist/index.js');
  expect(paths).toEqual(expect.arrayContaining(['schema.json', 'bin/scenario-harness.js', 'dist/cli/main.js']));
  expect(paths.filter((path) => path.startsWith('src/') || path.startsWith('test/') || path.includes('.test.'))).toEqual([]);
});

test('the guides ship with the README, and every relative link in a shipped document leads to a shipped file', async () => {
  const inPackage = new Set(await shippedPaths());
  const markdown = [...inPackage].filter((path) => path.endsWith('.md'));
  expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/mock-format.md', 'docs/request-bodies.md', 'docs/troubleshooting.md']));
  const dead = markdown.flatMap((doc) =>
    links(readFileSync(join(ROOT, doc), 'utf8'))
      .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
      .map((target) => posix.normalize(posix.join(posix.dirname(doc), decodeURIComponent(target.split('#')[0]!))))
      .filter((path) => !inPackage.has(path))
      .map((path) => `${doc} → ${path}`),
  );
  expect(dead).toEqual([]);
});

test('no source maps ship, and a stack trace from the package points at files it ships', async () => {
  const paths = await shippedPaths();
  expect(paths.filter((path) => path.endsWith('.map'))).toEqual([]);
  for (const path of paths.filter((path) => path.endsWith('.js'))) expect(readFileSync(join(ROOT, path), 'utf8'), path).not.toContain('sourceMappingURL');

  // A user's error from the installed package, with source maps on as a debugger would have them.
  const script = `import('scenario-harness').then((m) => { try { m.createHarness({ enabled: 'yes', scenarios: {} }); } catch (error) { console.log(error.stack); } });`;
  const { stdout: stack } = await run(process.execPath, ['--enable-source-maps', '-e', script], { cwd: CONSUMER });
  const frames = [...stack.matchAll(/\((?:file:\/\/)?([^()]*node_modules\/scenario-harness\/[^():]+):\d+:\d+\)/g)].map((match) => match[1]!);
  expect(frames.length).toBeGreaterThan(0);
  for (const file of frames) {
    expect(file, stack).toMatch(/\/dist\//);
    expect(existsSync(file), file).toBe(true);
  }
});

test('the bin runs from the tarball: npx scenario-harness --version, and validate on a scenario file', async () => {
  const { version } = readJson('package.json') as { version: string };
  const { stdout } = await run('npx', ['--no-install', 'scenario-harness', '--version'], { cwd: CONSUMER });
  expect(stdout.trim()).toBe(version);
  writeFileSync(join(CONSUMER, 'scenarios.yaml'), 'default:\n  name: Default\n  mocks:\n    - url: https://api.x.test/a\n      response: { body: 1 }\n');
  const validated = await run('npx', ['--no-install', 'scenario-harness', 'validate', 'scenarios.yaml'], { cwd: CONSUMER });
  expect(validated.stdout).toBe('✓ scenarios.yaml: 1 scenario (default), 1 mock\n');
});

test('publint finds no problem in the package', async () => {
  const { stdout } = await run('npx', ['publint', '--strict'], { cwd: ROOT });
  expect(stdout).not.toMatch(/Errors:|Warnings:/);
}, 60_000);

test('the CLI answers --help from the tarball, naming its commands', async () => {
  const { stdout } = await run('npx', ['--no-install', 'scenario-harness', '--help'], { cwd: CONSUMER });
  expect(stdout).toMatch(/validate/);
  expect(stdout).toMatch(/serve/);
  expect(stdout).toMatch(/import/);
});

test('npm pack from a fresh clone (no dist/) builds first: the tarball has dist/ and its CLI runs', async () => {
  // The repository's tracked files only, as `git clone` would give them, beside this install's node_modules.
  const clone = mkdtempSync(join(tmpdir(), 'scenario-harness-clone-'));
  try {
    const { stdout: tracked } = await run('git', ['ls-files', '-z'], { cwd: ROOT });
    for (const path of tracked.split('\0').filter((path) => path !== '' && existsSync(join(ROOT, path)))) {
      mkdirSync(dirname(join(clone, path)), { recursive: true });
      copyFileSync(join(ROOT, path), join(clone, path));
    }
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    expect(existsSync(join(clone, 'dist'))).toBe(false);
    const { stdout } = await run('npm', ['pack', '--json'], { cwd: clone });
    const [{ filename, files }] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
    expect(files.map((file) => file.path)).toEqual(expect.arrayContaining(['dist/index.js', 'dist/cli/main.js', 'dist/adapters/express.js']));
    const consumer = join(clone, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', join(clone, filename)], { cwd: consumer });
    const help = await run('npx', ['--no-install', 'scenario-harness', '--help'], { cwd: consumer });
    expect(help.stdout).toMatch(/validate/);
    const imported = await run(process.execPath, ['--input-type=module', '-e', "console.log(typeof (await import('scenario-harness')).createHarness)"], { cwd: consumer });
    expect(imported.stdout.trim()).toBe('function');
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}, 300_000);

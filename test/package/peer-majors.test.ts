/**
 * The package beside every framework major its peer ranges claim (issue 42, item 7). An app that
 * has locked a release of a supported major keeps it: `npm install -D <tarball>` leaves every
 * package the app had, and its lockfile, as they were (before, an app on Next.js 15.2.3 was
 * moved to 15.5.29 with 38 other lockfile entries, one pinned exactly got ERESOLVE, and Express 4.17,
 * Fastify 4.0 and Koa 2.13 were moved too). Each range starts at a release checked here, where
 * the adapter then answers over HTTP; the newest majors are checked the same way. npm's
 * resolution of all majors together is checked too, and a major outside the ranges is refused.
 * @see https://github.com/scenario-harness/scenario-harness/issues/42
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { appName, copyOfApp, installDev, listTree, lockedApp, lockfileChanges, readLockfile, treeChanges, type AppPackages } from './support/locked-app.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const rootPackage = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>; peerDependencies: Record<string, string> };
const { next: nextVersions } = JSON.parse(readFileSync(join(ROOT, 'test-runtimes.json'), 'utf8')) as { next: { previous: string } };
const aliasTarget = (alias: string) => rootPackage.devDependencies[alias]!.replace(/^npm:/, '');
/** The release of a package this repository installed (its own, newest major). */
const newest = (name: string) => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** A framework the smoke app below runs, with the adapter the README shows for it. */
type Framework = 'express' | 'fastify' | 'koa' | 'hono';

interface AppCase {
  /** The app's own packages, exact releases (installed as `^release`, as `npm install <name>@<release>` saves them). */
  packages: AppPackages;
  /** Pin the first package exactly (`"next": "15.2.3"`) before installing scenario-harness. */
  exact?: true;
  /** Start an app on this framework with its adapter and check it answers. */
  answers?: Framework;
}

const APPS: AppCase[] = [
  { packages: { next: '15.0.0', react: '18.3.1', 'react-dom': '18.3.1' } },
  { packages: { next: '15.2.3', react: '19.0.0', 'react-dom': '19.0.0' } },
  { packages: { next: '15.2.3', react: '19.0.0', 'react-dom': '19.0.0' }, exact: true },
  { packages: { next: '16.0.0', react: '19.2.0', 'react-dom': '19.2.0' } },
  { packages: { next: newest('next'), react: newest('react'), 'react-dom': newest('react-dom') } },
  { packages: { express: '4.17.0' }, answers: 'express' },
  { packages: { express: '5.0.0' }, answers: 'express' },
  { packages: { express: newest('express') }, answers: 'express' },
  { packages: { fastify: '4.0.0' }, answers: 'fastify' },
  { packages: { fastify: '5.0.0' }, answers: 'fastify' },
  { packages: { fastify: newest('fastify') }, answers: 'fastify' },
  { packages: { koa: '2.13.0' }, answers: 'koa' },
  { packages: { koa: '3.0.0' }, answers: 'koa' },
  { packages: { koa: newest('koa') }, answers: 'koa' },
  { packages: { hono: '4.0.0' }, answers: 'hono' },
  { packages: { hono: newest('hono') }, answers: 'hono' },
  { packages: { '@playwright/test': '1.40.0' } },
  { packages: { '@playwright/test': newest('@playwright/test') } },
];
const label = ({ packages, exact }: AppCase) => `${Object.entries(packages)[0]!.join(' ')}${exact ? ' (pinned exactly)' : ''}`;

let work: string;
let tarball: string;
beforeAll(async () => {
  // Packed as it is (no prepack rebuild): this file checks the manifest and the built adapters, and
  // test files running beside it import dist/, which a rebuild would remove for a moment.
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('No dist/ to pack: run `npm run build` first (`npm test` does).');
  work = mkdtempSync(join(tmpdir(), 'scenario-harness-peers-'));
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--json'], { cwd: ROOT });
  tarball = join(work, (JSON.parse(stdout) as [{ filename: string }])[0].filename);
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

test('every peer range starts at a release installed below, and the newest majors are installed too', () => {
  const tested = (name: string, version: string) => APPS.some(({ packages }) => packages[name] === version);
  for (const [name, range] of Object.entries(rootPackage.peerDependencies)) {
    for (const alternative of range.split('||').map((part) => part.trim())) {
      const floor = /^(?:\^|>=)(\d+\.\d+\.\d+)$/.exec(alternative)?.[1];
      expect(floor, `${name}: "${alternative}" should read ^x.y.z or >=x.y.z`).toBeDefined();
      expect(tested(name, floor!), `${name}@${floor}, where "${alternative}" starts, is in APPS`).toBe(true);
    }
    expect(tested(name, newest(name)), `${name}@${newest(name)} (this repository's) is in APPS`).toBe(true);
  }
});

/** An app on `framework` with the adapter, a scenario switched through its control endpoint, and what it answered. */
const SMOKE_APPS: Record<Framework, string> = {
  express: `import express from 'express';
import { harnessMiddleware } from 'scenario-harness/express';
const app = express();
app.use(harnessMiddleware(harness));
app.use(express.json());
app.get('/greeting', (_req, res, next) => greeting().then((text) => res.send(text), next));
const server = await new Promise((resolve) => { const listening = app.listen(0, '127.0.0.1', () => resolve(listening)); });
const origin = 'http://127.0.0.1:' + server.address().port;
const request = (path, init) => fetch(origin + path, init);
const close = () => new Promise((resolve) => server.close(resolve));`,
  fastify: `import Fastify from 'fastify';
import { harnessPlugin } from 'scenario-harness/fastify';
const app = Fastify();
await app.register(harnessPlugin, { harness });
app.get('/greeting', () => greeting());
await app.listen({ port: 0, host: '127.0.0.1' });
const origin = 'http://127.0.0.1:' + app.server.address().port;
const request = (path, init) => fetch(origin + path, init);
const close = () => app.close();`,
  koa: `import Koa from 'koa';
import { harnessMiddleware } from 'scenario-harness/koa';
const app = new Koa();
app.use(harnessMiddleware(harness));
app.use(async (ctx) => { if (ctx.path === '/greeting') ctx.body = await greeting(); });
const server = await new Promise((resolve) => { const listening = app.listen(0, '127.0.0.1', () => resolve(listening)); });
const origin = 'http://127.0.0.1:' + server.address().port;
const request = (path, init) => fetch(origin + path, init);
const close = () => new Promise((resolve) => server.close(resolve));`,
  hono: `import { Hono } from 'hono';
import { harnessMiddleware } from 'scenario-harness/hono';
const app = new Hono();
app.use(harnessMiddleware(harness));
app.get('/greeting', async (c) => c.text(await greeting()));
// Hono answers Fetch requests in process: no server needed.
const request = (path, init) => app.request('http://localhost' + path, init);
const close = async () => {};`,
};

async function answerThroughAdapter(dir: string, framework: Framework): Promise<unknown> {
  writeFileSync(
    join(dir, 'smoke.mjs'),
    `import { createHarness } from 'scenario-harness';
const greetingMock = (body) => ({ method: 'GET', url: 'https://api.example.test/greeting', response: { body } });
const harness = createHarness({
  enabled: true,
  announce: false,
  unhandled: 'error',
  scenarios: { default: { name: 'Default', mocks: [greetingMock('hello from default')] }, other: { name: 'Other', mocks: [greetingMock('hello from other')] } },
});
await harness.start();
const greeting = async () => (await fetch('https://api.example.test/greeting')).text();
${SMOKE_APPS[framework]}
const test = { 'x-harness-test-id': 'peer-floor' };
const switched = await request('/__scenario__', { method: 'POST', headers: { ...test, 'content-type': 'application/json' }, body: JSON.stringify({ scenario: 'other' }) });
const answers = [switched.status, await (await request('/greeting', { headers: test })).text(), await (await request('/greeting')).text()];
await close();
await harness.stop();
console.log(JSON.stringify(answers));
`,
  );
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('HARNESS_') && !name.startsWith('VITEST') && name !== 'NODE_OPTIONS'));
  const { stdout } = await run(process.execPath, ['smoke.mjs'], { cwd: dir, env });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as unknown;
}

/** Pin the app's first package to its exact release, in package.json and in the lockfile's entry for the app. */
function pinExactly(dir: string, packages: AppPackages): void {
  const [name, version] = Object.entries(packages)[0]!;
  const edit = <T>(file: string, change: (json: T) => void) => {
    const json = JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;
    change(json);
    writeFileSync(join(dir, file), `${JSON.stringify(json, null, 2)}\n`);
  };
  edit<{ dependencies: Record<string, string> }>('package.json', (manifest) => (manifest.dependencies[name] = version));
  edit<{ packages: Record<string, { dependencies: Record<string, string> }> }>('package-lock.json', (lock) => (lock.packages['']!.dependencies[name] = version));
}

test.each(APPS.map((app) => [label(app), app] as const))(
  'beside an app on %s, npm install -D of the tarball leaves its packages and lockfile as they were',
  async (_label, app) => {
    const dir = await copyOfApp(await lockedApp(app.packages));
    try {
      if (app.exact) pinExactly(dir, app.packages);
      const manifest = readFileSync(join(dir, 'package.json'), 'utf8');
      const [lockBefore, treeBefore] = [readLockfile(dir), await listTree(dir)];
      await installDev(dir, tarball);
      expect(lockfileChanges(lockBefore, readLockfile(dir)), `${appName(app.packages)}: lockfile entries the install moved`).toEqual({ moved: [], addedBesides: [] });
      expect(treeChanges(treeBefore, await listTree(dir)), `${appName(app.packages)}: npm ls before and after`).toEqual([]);
      const { devDependencies, ...rest } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
      expect(rest).toEqual(JSON.parse(manifest));
      expect(Object.keys(devDependencies)).toEqual(['scenario-harness']);
      if (app.answers !== undefined) expect(await answerThroughAdapter(dir, app.answers)).toEqual([200, 'hello from other', 'hello from default']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  600_000,
);

async function plainInstall(project: string, packages: string[]): Promise<void> {
  const dir = join(work, project);
  await run('mkdir', ['-p', dir]);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: project, private: true, type: 'module' }));
  await run('npm', ['install', '--dry-run', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...packages], { cwd: dir });
}

// npm resolves the whole tree (`--dry-run`: the resolution that fails with ERESOLVE on a peer
// conflict, without downloading the frameworks): every major at once, beside one another.
test('beside the previous majors at once: Express 4, Fastify 4, Koa 2, Next.js 15, Hono 4', async () => {
  await expect(
    plainInstall('previous', [aliasTarget('express4'), aliasTarget('fastify4'), aliasTarget('koa2'), `next@${nextVersions.previous}`, 'react@19', 'react-dom@19', 'hono@4']),
  ).resolves.toBeUndefined();
}, 180_000);

test('beside the current majors at once: Express 5, Fastify 5, Koa 3, Next.js 16, Hono 4, @playwright/test', async () => {
  const current = ['express', 'fastify', 'koa', 'next', 'hono', '@playwright/test'].map((name) => `${name}@${rootPackage.devDependencies[name]!}`);
  await expect(plainInstall('current', [...current, 'react@19', 'react-dom@19'])).resolves.toBeUndefined();
}, 180_000);

test('a framework major outside the ranges is refused by npm, naming the peer (the checks above can fail)', async () => {
  await expect(plainInstall('too-old', ['express@3'])).rejects.toThrow(/ERESOLVE[\s\S]*peerOptional express@"\^4/);
}, 180_000);

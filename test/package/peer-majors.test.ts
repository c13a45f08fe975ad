import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

/**
 * A plain `npm install scenario-harness` beside every framework major the peer ranges claim:
 * npm resolves the whole tree (`--dry-run`: the resolution that fails with ERESOLVE on a peer
 * conflict, without downloading the frameworks). The adapter suites run each major for real.
 */
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { devDependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
const { next: nextVersions } = JSON.parse(readFileSync(join(ROOT, 'test-runtimes.json'), 'utf8')) as { next: { previous: string } };
const aliasTarget = (alias: string) => devDependencies[alias]!.replace(/^npm:/, '');

let work: string;
let tarball: string;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'scenario-harness-peers-'));
  const { stdout } = await run('npm', ['pack', '--pack-destination', work, '--json'], { cwd: ROOT });
  tarball = join(work, (JSON.parse(stdout) as [{ filename: string }])[0].filename);
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function plainInstall(project: string, packages: string[]): Promise<void> {
  const dir = join(work, project);
  await run('mkdir', ['-p', dir]);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: project, private: true, type: 'module' }));
  await run('npm', ['install', '--dry-run', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...packages], { cwd: dir });
}

test('beside the previous majors: Express 4, Fastify 4, Koa 2, Next.js 15, Hono 4', async () => {
  await expect(
    plainInstall('previous', [aliasTarget('express4'), aliasTarget('fastify4'), aliasTarget('koa2'), `next@${nextVersions.previous}`, 'react@19', 'react-dom@19', 'hono@4']),
  ).resolves.toBeUndefined();
}, 180_000);

test('beside the current majors: Express 5, Fastify 5, Koa 3, Next.js 16, Hono 4, @playwright/test', async () => {
  const current = ['express', 'fastify', 'koa', 'next', 'hono', '@playwright/test'].map((name) => `${name}@${devDependencies[name]!}`);
  await expect(plainInstall('current', [...current, 'react@19', 'react-dom@19'])).resolves.toBeUndefined();
}, 180_000);

test('a framework major outside the ranges is refused by npm, naming the peer (the check above can fail)', async () => {
  await expect(plainInstall('too-old', ['express@3'])).rejects.toThrow(/ERESOLVE[\s\S]*peerOptional express@"\^4/);
}, 180_000);

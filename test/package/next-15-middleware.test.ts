/**
 * The package installs beside any Next.js 15 (issue 42, item 7), and on the releases before 15.5
 * the adapter says at run time what the installer used to say by refusing them: there,
 * middleware runs on the edge runtime only, so `harnessProxy` in middleware.ts cannot reach the
 * harness, and the log names the release found and the one it needs. The rest of the adapter
 * works there: an app on Next.js 15.0 and 15.2 (installed outside the repository, the packed
 * tarball beside it) switches through route handlers and renders a server component from the
 * test's scenario.
 * @see https://github.com/scenario-harness/scenario-harness/issues/42
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyOfApp, installDev, lockedApp } from './support/locked-app.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const FILES: Record<string, string> = {
  'lib/harness.js': `import { createNextHarness } from 'scenario-harness/next';
const greeting = (body) => ({ method: 'GET', url: 'https://api.example.test/greeting', response: { body } });
export const harness = createNextHarness({
  enabled: process.env.HARNESS_ENABLED === 'true',
  unhandled: 'error',
  scenarios: { default: { name: 'Default', mocks: [greeting('hello')] }, friendly: { name: 'Friendly', mocks: [greeting('hi, friend')] } },
});
`,
  'instrumentation.js': `export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const [{ registerHarness }, { harness }] = await Promise.all([import('scenario-harness/next'), import('./lib/harness.js')]);
  await registerHarness(harness);
}
`,
  'app/%5F%5Fscenario%5F%5F/route.js': `import { harnessRouteHandlers } from 'scenario-harness/next';
import { harness } from '../../lib/harness.js';
export const { GET, POST, DELETE } = harnessRouteHandlers(harness);
`,
  'app/layout.js': `export default function RootLayout({ children }) {
  return <html><body>{children}</body></html>;
}
`,
  'app/page.js': `export const dynamic = 'force-dynamic';
export default async function Page() {
  const text = await (await fetch('https://api.example.test/greeting')).text();
  return <p id="greeting">{text}</p>;
}
`,
  // What the Next.js 15 guide says for 15.5 and later, without the Node.js runtime these releases
  // cannot give middleware: Next runs it on the edge.
  'middleware.js': `import { harnessProxy } from 'scenario-harness/next';
import { harness } from './lib/harness.js';
export const middleware = harnessProxy(harness);
export const config = { matcher: ['/__harness__/:path*'] };
`,
};

/** Next's CLI environment, as a developer's shell has it (vitest sets NODE_ENV and VITEST*). */
function nextEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('HARNESS_') && !name.startsWith('VITEST') && name !== 'NODE_ENV' && name !== 'NODE_OPTIONS'));
  return { ...env, NEXT_TELEMETRY_DISABLED: '1', ...extra };
}

let work: string;
let tarball: string;
beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('No dist/ to pack: run `npm run build` first (`npm test` does).');
  work = mkdtempSync(join(tmpdir(), 'scenario-harness-next15-'));
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--json'], { cwd: ROOT });
  tarball = join(work, (JSON.parse(stdout) as [{ filename: string }])[0].filename);
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `next start` in `dir`, with its output so far and a way to wait for a line of it. */
async function nextStart(dir: string) {
  const child = spawn(process.execPath, [join(dir, 'node_modules/next/dist/bin/next'), 'start', '-H', '127.0.0.1', '-p', '0'], { cwd: dir, env: nextEnv({ HARNESS_ENABLED: 'true', HARNESS_ALLOW_PRODUCTION: 'true' }), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const waiting: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString();
    for (const wait of [...waiting]) {
      const line = output.split('\n').find((text) => wait.pattern.test(text));
      if (line === undefined) continue;
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve(line);
    }
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lineMatching = (pattern: RegExp) =>
    Promise.race([
      new Promise<string>((resolve) => {
        waiting.push({ pattern, resolve });
        onOutput(Buffer.alloc(0));
      }),
      exited.then(() => Promise.reject(new Error(`next start exited before printing ${pattern}:\n${output}`))),
    ]);
  const ready = await lineMatching(/Local:\s+http:\/\/\S+/);
  await lineMatching(/Ready in/);
  return {
    origin: /http:\/\/\S+/.exec(ready)![0],
    lineMatching,
    close: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

test.each(['15.0.0', '15.2.3'])(
  'Next.js %s: route handlers switch and a server component answers from the scenario; harnessProxy in middleware says it needs 15.5',
  async (version) => {
    const dir = await copyOfApp(await lockedApp({ next: version, react: version === '15.0.0' ? '18.3.1' : '19.0.0', 'react-dom': version === '15.0.0' ? '18.3.1' : '19.0.0' }));
    let server: Awaited<ReturnType<typeof nextStart>> | undefined;
    try {
      await installDev(dir, tarball);
      for (const [path, content] of Object.entries(FILES)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), content);
      }
      await run(process.execPath, [join(dir, 'node_modules/next/dist/bin/next'), 'build'], { cwd: dir, env: nextEnv({ HARNESS_ENABLED: 'false' }), maxBuffer: 64 << 20 });
      server = await nextStart(dir);
      const test = { 'x-harness-test-id': `next-${version}` };

      const switched = await fetch(`${server.origin}/__scenario__`, { method: 'POST', headers: { ...test, 'content-type': 'application/json' }, body: JSON.stringify({ scenario: 'friendly' }) });
      expect(await switched.json()).toEqual({ success: true, testId: `next-${version}`, scenarioId: 'friendly' });
      expect(await (await fetch(server.origin, { headers: test })).text()).toContain('<p id="greeting">hi, friend</p>');
      expect(await (await fetch(server.origin)).text()).toContain('<p id="greeting">hello</p>');

      // The middleware runs on the edge, where the harness is off: the request goes on to the app.
      const viaMiddleware = server.lineMatching(/\[scenario-harness\] off on the edge runtime/);
      expect((await fetch(`${server.origin}/__harness__/state`, { headers: test })).status).toBe(404);
      expect(await viaMiddleware).toContain(
        `[scenario-harness] off on the edge runtime: Next.js ${version} runs middleware on the edge runtime only, and harnessProxy needs the Node.js runtime, which middleware has from Next.js 15.5.0`,
      );
    } finally {
      await server?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
  600_000,
);

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PlaywrightTestConfig, Project } from '@playwright/test';
import { runtimeBinary } from '../../../scripts/ensure-runtimes.mjs';

type WebServer = Extract<NonNullable<PlaywrightTestConfig['webServer']>, unknown[]>[number];

const FIXTURES = fileURLToPath(new URL('../../runtimes/fixtures/', import.meta.url));
const onCI = Boolean(process.env.CI) && !['0', 'false'].includes(process.env.CI!.toLowerCase());

/** How each runtime runs the page app, as test/runtimes/start-runtime-app.ts runs its apps. */
const COMMANDS = {
  // Bun follows tsconfig.json paths to src/; the override has none, so the app loads the build as a user's does.
  bun: (binary: string) => `${JSON.stringify(binary)} --tsconfig-override=bun-tsconfig.json page-app.js`,
  // --no-lock: no deno.lock written into the repository.
  deno: (binary: string) => `${JSON.stringify(binary)} run --allow-all --no-lock page-app.js`,
} as const;

/**
 * The projects 'bun' and 'deno' (test/browser/runtimes/*.spec.ts) and the servers they run
 * against, on ports `firstPort` and `firstPort + 1`. A runtime that is not installed is left out
 * with a loud warning on a developer's machine; on CI that is an error (.ci/run installs both).
 */
export function runtimeProjects(firstPort: number): { projects: Project[]; servers: WebServer[] } {
  const projects: Project[] = [];
  const servers: WebServer[] = [];
  (['bun', 'deno'] as const).forEach((runtime, i) => {
    const binary = runtimeBinary(runtime);
    if (!existsSync(binary)) {
      const install = `no ${runtime} at ${binary}: run \`node scripts/ensure-runtimes.mjs\` (it fetches the pinned binary from the npm registry)`;
      if (onCI) throw new Error(`The browser suite's '${runtime}' project cannot run: ${install}. CI must run it.`);
      console.warn(`\n*** SKIPPED the browser suite's '${runtime}' project: ${install}. ***\n`);
      return;
    }
    const port = firstPort + i;
    const baseURL = `http://127.0.0.1:${port}`;
    projects.push({ name: runtime, testMatch: 'runtimes/**/*.spec.ts', use: { baseURL } });
    servers.push({
      command: COMMANDS[runtime](binary),
      cwd: FIXTURES,
      url: `${baseURL}/health`,
      // No colour codes; Deno's update check would reach for the internet.
      env: { PORT: String(port), NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    });
  });
  return { projects, servers };
}

/**
 * The Nuxt module's part that runs in `nuxt dev` / `nuxt build`, called as Nuxt calls a module
 * (`module(inlineOptions, nuxt)`, `getMeta()`) with the few fields of Nuxt it reads: a missing
 * or misspelt option stops the build with the fix, and a good one adds the Nitro plugin.
 * test/frameworks/nuxt.test.ts runs it in real Nuxt apps.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nuxtModule from 'scenario-harness/nuxt';
import { afterAll, expect, test } from 'vitest';

const root = mkdtempSync(join(tmpdir(), 'nuxt-module-'));
mkdirSync(join(root, 'server'));
writeFileSync(join(root, 'server', 'scenarios.ts'), 'export const scenarios = {};\n');
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface NitroConfig {
  virtual?: Record<string, string>;
  plugins?: string[];
  externals?: { inline?: unknown[] };
}

/** The Nuxt fields the module reads, with `harness` from nuxt.config; the hooks it adds are kept. */
function fakeNuxt(harness: unknown) {
  const hooks: Record<string, ((...args: never[]) => unknown)[]> = {};
  return {
    options: { dev: false, rootDir: root, buildDir: join(root, '.nuxt'), alias: { '~~': root, '~': root, '@': root }, harness },
    hook(name: string, fn: (...args: never[]) => unknown) {
      (hooks[name] ??= []).push(fn);
    },
    hooks,
  };
}

test('Nuxt reads the config key "harness" from its meta', async () => {
  expect(await nuxtModule.getMeta()).toEqual(expect.objectContaining({ name: 'scenario-harness', configKey: 'harness' }));
});

test('a good config adds one Nitro plugin that imports the scenarios module, and keeps the package external', async () => {
  const nuxt = fakeNuxt({ scenarios: '~~/server/scenarios', unhandled: 'error', allowHosts: [/\.internal$/] });
  await nuxtModule(undefined, nuxt);
  const config: NitroConfig = { plugins: ['/app/server/plugins/own.ts'], externals: { inline: ['scenario-harness', 'nuxt/dist'] } };
  for (const hook of nuxt.hooks['nitro:config'] ?? []) (hook as (config: NitroConfig) => void)(config);
  const plugin = join(root, '.nuxt', 'scenario-harness-nitro-plugin.mjs');
  expect(config.plugins).toEqual(['/app/server/plugins/own.ts', plugin]);
  expect(config.externals?.inline).toEqual(['nuxt/dist']);
  const code = config.virtual?.[plugin];
  expect(code).toContain(`import * as source from ${JSON.stringify(join(root, 'server', 'scenarios.ts'))};`);
  expect(code).toContain(`from 'scenario-harness/nuxt/runtime'`);
  expect(code).toContain('options: { "unhandled": "error", "allowHosts": [/\\.internal$/] }');
});

test('options given inline in modules take the place of those under harness', async () => {
  const nuxt = fakeNuxt({ scenarios: 'nowhere' });
  await nuxtModule({ scenarios: 'server/scenarios' }, nuxt);
  expect(nuxt.hooks['nitro:config']).toHaveLength(1);
});

test.each([
  ['no options at all', undefined, 'expected "harness.scenarios" in nuxt.config to name the module that exports your scenarios, such as harness: { scenarios: \'~~/server/scenarios\' }, instead got nothing.'],
  ['a misspelt option', { scenarios: '~~/server/scenarios', unhandeld: 'error' }, '"harness.unhandeld" is not an option (did you mean "unhandled"?)'],
  ['a misspelt scenarios', { scenario: '~~/server/scenarios' }, '"harness.scenario" is not an option (did you mean "scenarios"?)'],
  ['a path that names no file', { scenarios: '~~/server/scenario' }, `"harness.scenarios" is "~~/server/scenario", and there is no such module (looked for ${join(root, 'server', 'scenario')} with .ts, .mts, .js or .mjs).`],
  ['a function', { scenarios: '~~/server/scenarios', unhandled: () => {} }, '"harness.unhandled" is a function, which nuxt.config cannot hand to the server'],
  ['an unknown unhandled', { scenarios: '~~/server/scenarios', unhandled: 'erorr' }, 'expected "unhandled" to be \'bypass\', \'warn\', \'error\' or a function, instead got "erorr".'],
  ['enabled as a string', { scenarios: '~~/server/scenarios', enabled: 'true' }, 'expected "harness.enabled" to be true or false'],
  ['an access without a token', { scenarios: '~~/server/scenarios', access: {} }, '"access" is set but has neither a token nor authorize'],
])('%s stops the build with a message that says what to change', async (_case, harness, message) => {
  await expect(nuxtModule(undefined, fakeNuxt(harness))).rejects.toThrow(message);
});

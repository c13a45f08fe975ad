/**
 * @module
 * Nuxt: `modules: ['scenario-harness/nuxt']` and `harness: { scenarios: '~~/server/scenarios' }`
 * in nuxt.config. Nitro then runs every request as its test and answers the control endpoints,
 * in `nuxt dev` and in the built server, with no Nitro internals.
 */
import { HARNESS_PARTS } from '../harness-parts.js';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LOG_PREFIX } from '../core/dev-utils.js';
import { didYouMean } from '../core/did-you-mean.js';
import { HarnessError } from '../core/errors.js';
import type { HarnessOptions } from '../core/types.js';
import { validateOptions } from '../core/validate-options.js';
import { SESSION_HOST_VARIABLE } from '../core/store/process-tree/protocol.js';

/** The options under `harness:` in nuxt.config (or `['scenario-harness/nuxt', { ... }]`). */
export interface NuxtHarnessOptions extends Omit<HarnessOptions, 'enabled' | 'scenarios' | 'store' | 'logger' | 'sideBySide'> {
  /** The module that exports the scenarios (`export const scenarios = defineScenarios(...)`, or its default export): a path from the app's root or with a Nuxt alias. */
  scenarios: string;
  /** @default process.env.HARNESS_ENABLED === 'true' where the server runs, read when it starts (nuxt.config is read at build time) */
  enabled?: boolean;
}

/** What the module reads of Nuxt: the same in Nuxt 3 and 4. */
interface NuxtLike {
  options: { dev: boolean; rootDir: string; buildDir: string; alias?: Record<string, string> } & Record<string, unknown>;
  hook(name: string, fn: (...args: never[]) => unknown): unknown;
}

interface NitroConfigLike {
  virtual?: Record<string, string | (() => string)>;
  plugins?: string[];
  externals?: { inline?: unknown[] };
}

const OWN_KEYS = ['scenarios', 'enabled'];
/** The createHarness options nuxt.config can hand to the server: data, not functions or objects with methods. */
const PASSED_ON = ['endpoints', 'unhandled', 'announce', 'limits', 'allowHosts', 'propagate', 'recording', 'intercept', 'journal', 'access', 'allowProduction'];

function fail(message: string): never {
  throw new HarnessError('INVALID_OPTIONS', `scenario-harness/nuxt: ${message}`);
}

/** `value` as JavaScript source for the server build (RegExps included); a function cannot be, and says where it was. */
function toSource(value: unknown, path: string): string {
  if (value instanceof RegExp) return value.toString();
  if (Array.isArray(value)) return `[${value.map((item, i) => toSource(item, `${path}[${i}]`)).join(', ')}]`;
  if (typeof value === 'object' && value !== null) return `{ ${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${toSource(item, `${path}.${key}`)}`).join(', ')} }`;
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
    fail(`"${path}" is a ${typeof value}, which nuxt.config cannot hand to the server (Nuxt reads it at build time). Use data there: unhandled: 'error', access: { token } (or HARNESS_TOKEN where the server runs).`);
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** The options, checked: a missing or misspelt one stops `nuxt dev` / `nuxt build` with the fix. */
function readNuxtHarnessOptions(options: unknown): NuxtHarnessOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    fail(`expected the options under "harness" in nuxt.config to be an object such as { scenarios: '~~/server/scenarios' }, instead got ${Array.isArray(options) ? 'an array' : JSON.stringify(options)}.`);
  }
  const keys = [...OWN_KEYS, ...PASSED_ON];
  for (const key of Object.keys(options)) {
    if (keys.includes(key)) continue;
    const near = didYouMean(key, keys);
    fail(`"harness.${key}" is not an option${near === undefined ? '' : ` (did you mean "${near}"?)`}; the options are ${keys.join(', ')}.`);
  }
  const { scenarios, enabled, ...rest } = options as Record<string, unknown>;
  if (typeof scenarios !== 'string' || scenarios === '') {
    fail(`expected "harness.scenarios" in nuxt.config to name the module that exports your scenarios, such as harness: { scenarios: '~~/server/scenarios' }, instead got ${JSON.stringify(scenarios) ?? 'nothing'}.`);
  }
  if (enabled !== undefined && typeof enabled !== 'boolean') fail(`expected "harness.enabled" to be true or false (or left out: HARNESS_ENABLED=true where the server runs), instead got ${JSON.stringify(enabled)}.`);
  // The createHarness checks, at build time; `access` is checked as when enabled, unless HARNESS_TOKEN will give it.
  validateOptions({ ...rest, enabled: rest.access !== undefined, scenarios: {} } as HarnessOptions, HARNESS_PARTS);
  toSource(rest, 'harness');
  return options as NuxtHarnessOptions;
}

/** The scenarios module's file: Nuxt aliases (`~~/`, `~/`, `@/`…) expanded, from the app's root, with or without its extension. */
function scenariosFile(path: string, nuxt: NuxtLike): string {
  const aliases = Object.entries(nuxt.options.alias ?? {}).sort(([a], [b]) => b.length - a.length);
  const [alias, target] = aliases.find(([name]) => path === name || path.startsWith(`${name}/`)) ?? ['', ''];
  const base = resolve(nuxt.options.rootDir, alias === '' ? path : target + path.slice(alias.length));
  const file = ['', '.ts', '.mts', '.js', '.mjs', '/index.ts', '/index.js'].map((suffix) => base + suffix).find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  if (file === undefined) fail(`"harness.scenarios" is ${JSON.stringify(path)}, and there is no such module (looked for ${base} with .ts, .mts, .js or .mjs). Name the file that exports your scenarios, from the app's root or as '~~/server/scenarios'.`);
  return file;
}

/**
 * The Nuxt module: adds a Nitro plugin (a virtual module) that creates the harness from the
 * scenarios module, starts it before the server listens, and scopes every request of the server
 * with `scopeIncomingRequests`. In `nuxt dev`, this process keeps the test sessions for Nitro's
 * worker, so a worker restarted by a server edit keeps every switched test.
 *
 * @example
 * // nuxt.config.ts
 * export default defineNuxtConfig({
 *   modules: ['scenario-harness/nuxt'],
 *   harness: { scenarios: '~~/server/scenarios', unhandled: 'error' },
 * });
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/nuxt.md
 */
async function scenarioHarnessModule(inlineOptions: Record<string, unknown> | undefined, nuxt: NuxtLike): Promise<void> {
  const options = readNuxtHarnessOptions({ ...(nuxt.options.harness as object | undefined), ...inlineOptions });
  const { scenarios, enabled, ...harnessOptions } = options;
  const file = scenariosFile(scenarios, nuxt);
  const dev = nuxt.options.dev;
  if (dev && (enabled ?? process.env.HARNESS_ENABLED === 'true') && process.env[SESSION_HOST_VARIABLE] === undefined) {
    // Nitro runs the server in a worker thread and starts a new one on a server edit: this
    // process keeps the sessions, and the workers inherit the address (Nitro copies process.env).
    const [{ createMemoryStore }, { hostSessions }] = await Promise.all([import('../core/store/memory-store.js'), import('../core/store/process-tree/host-sessions.js')]);
    process.env[SESSION_HOST_VARIABLE] = (await hostSessions(createMemoryStore())).address;
    nuxt.hook('nitro:init', (nitro: { hooks: { hook(name: string, fn: () => void): unknown } }) => {
      let builds = 0;
      nitro.hooks.hook('dev:reload', () => {
        if (++builds === 2) console.warn(`${LOG_PREFIX} Nitro restarted its server after an edit: the new one answers from the newest scenarios, and tests switched before keep their scenario, state and journal (this process keeps them).`);
      });
    });
  }
  const settings = `{ scenariosFile: ${JSON.stringify(file)}, dev: ${dev}, enabled: ${JSON.stringify(enabled)}, options: ${toSource(harnessOptions, 'harness')} }`;
  // A virtual module under an absolute path: Nitro resolves each plugin's path from the server folder.
  const plugin = join(nuxt.options.buildDir, 'scenario-harness-nitro-plugin.mjs');
  nuxt.hook('nitro:config', (config: NitroConfigLike) => {
    config.virtual = { ...config.virtual, [plugin]: `import * as source from ${JSON.stringify(file)};\nimport { startNitroHarness } from 'scenario-harness/nuxt/runtime';\nexport default await startNitroHarness(source, ${settings});\n` };
    config.plugins = [...(config.plugins ?? []), plugin];
    // Nuxt inlines a module's package into the server build; this one stays a dependency of it, one copy for the whole process.
    if (config.externals?.inline !== undefined) config.externals.inline = config.externals.inline.filter((entry) => entry !== 'scenario-harness');
  });
}

/** Nuxt reads a module's name and config key from `getMeta()` (what `defineNuxtModule` adds). */
export default Object.assign(scenarioHarnessModule, {
  getMeta: () => Promise.resolve({ name: 'scenario-harness', configKey: 'harness', compatibility: { nuxt: '>=3.0.0' } }),
});

import { didYouMean } from '../core/did-you-mean.js';
import { HarnessError } from '../core/errors.js';
import { redactUrl } from '../core/redact-url.js';
import type { HarnessControlOptions, UnhandledCallStrategy } from '../core/types.js';
import { parseHostAddress } from '../core/store/process-tree/join-sessions.js';
import { SESSION_HOST_VARIABLE } from '../core/store/process-tree/protocol.js';

/**
 * What `scenario-harness/register` reads from the environment, each documented in docs/no-code-setup.md
 * (HARNESS_ALLOW_PRODUCTION is read by the harness's own start(), the same for every app).
 */
export const REGISTER_VARIABLES = ['HARNESS_ENABLED', 'HARNESS_SCENARIOS', 'HARNESS_UNHANDLED', 'HARNESS_TOKEN', 'HARNESS_REDIS_URL', 'HARNESS_JOURNAL', 'HARNESS_ALLOWED_HOSTS', 'HARNESS_ALLOW_CROSS_SITE', 'HARNESS_ALLOW_PRODUCTION', 'HARNESS_SESSION_PORT', 'HARNESS_TIMING'] as const;

export interface RegisterSettings {
  /** Scenario files and modules, in the order given. */
  scenarios: string[];
  unhandled: UnhandledCallStrategy | undefined;
  token: string | undefined;
  redisUrl: string | undefined;
  journal: boolean;
  /** From HARNESS_ALLOWED_HOSTS (comma-separated names, or `*`) and HARNESS_ALLOW_CROSS_SITE; `undefined` when neither is set. */
  control: HarnessControlOptions | undefined;
  /** Where the first process of this tree under register serves its sessions (set by register for the processes it starts). */
  sessionHost: string | undefined;
  /** From HARNESS_SESSION_PORT: the loopback port the first process serves its sessions on; a free one when `undefined`. */
  sessionPort: number | undefined;
  /** Lines to print once: HARNESS_* variables that are not settings (likely typos), with the nearest one. */
  notes: string[];
}

const PREFIX = 'HARNESS_';
const UNHANDLED_MODES: readonly UnhandledCallStrategy[] = ['bypass', 'warn', 'error'];
const JOURNAL_VALUES: Readonly<Record<string, boolean>> = { on: true, true: true, off: false, false: false };

/** The HARNESS_* variables that are not settings of register, each with the setting it most likely meant. */
function unknownVariables(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('HARNESS_') && name !== SESSION_HOST_VARIABLE && !(REGISTER_VARIABLES as readonly string[]).includes(name))
    .flatMap((name) => {
      // Apps have HARNESS_* variables of their own: only a near miss of a setting (compared
      // without the shared prefix, so HARNESS_CONTROL is not taken for HARNESS_TOKEN) is worth a line.
      const meant = didYouMean(name.slice(PREFIX.length), REGISTER_VARIABLES.map((setting) => setting.slice(PREFIX.length)));
      return meant === undefined ? [] : [`${name} is not a setting of scenario-harness/register; did you mean ${PREFIX}${meant}?`];
    });
}

/** The control endpoints' Host names and cross-site setting; each problem is pushed onto `problems`. */
function readControl(env: NodeJS.ProcessEnv, problems: string[]): HarnessControlOptions | undefined {
  const names = (env.HARNESS_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const bad = names.find((name) => name !== '*' && /[/\s@]/.test(name));
  if (bad !== undefined) problems.push(`HARNESS_ALLOWED_HOSTS holds ${JSON.stringify(bad)}: expected host names the tests reach the app by, comma-separated, e.g. HARNESS_ALLOWED_HOSTS=app,app.internal (no scheme, no path), or * for any.`);
  const crossSite = env.HARNESS_ALLOW_CROSS_SITE;
  if (crossSite !== undefined && crossSite !== 'true' && crossSite !== 'false') problems.push(`HARNESS_ALLOW_CROSS_SITE is ${JSON.stringify(crossSite)}: expected "true" or "false".`);
  const control: HarnessControlOptions = {
    ...(names.length === 0 ? {} : { allowedHosts: names.includes('*') ? '*' : names }),
    ...(crossSite === 'true' ? { allowCrossSite: true } : {}),
  };
  return Object.keys(control).length === 0 ? undefined : control;
}

/** HARNESS_SESSION_PORT as a port number; a problem is pushed onto `problems`. */
function readSessionPort(env: NodeJS.ProcessEnv, problems: string[]): number | undefined {
  const given = env.HARNESS_SESSION_PORT;
  if (given === undefined) return undefined;
  const port = /^\d{1,5}$/.test(given.trim()) ? Number(given.trim()) : NaN;
  if (port >= 1 && port <= 65535) return port;
  problems.push(`HARNESS_SESSION_PORT is ${JSON.stringify(given)}: expected the loopback port (1 to 65535) the first process serves the test sessions on to the processes it starts, e.g. HARNESS_SESSION_PORT=47100; unset it to take any free port.`);
  return undefined;
}

/**
 * The settings in `env`, or `undefined` when `HARNESS_ENABLED` is not `true` (register then
 * installs nothing). Every invalid value is reported in one `HarnessError`, naming the variable,
 * what it holds and what it accepts.
 */
export function readRegisterEnvironment(env: NodeJS.ProcessEnv): RegisterSettings | undefined {
  if (env.HARNESS_ENABLED !== 'true') return undefined;
  const problems: string[] = [];
  const scenarios = (env.HARNESS_SCENARIOS ?? '')
    .split(',')
    .map((path) => path.trim())
    .filter((path) => path !== '');
  if (scenarios.length === 0) {
    problems.push('HARNESS_SCENARIOS is empty: name the scenario files (.json, .yaml, .yml) or modules (.js, .mjs; .ts where Node loads TypeScript), comma-separated, e.g. HARNESS_SCENARIOS=scenarios.yaml.');
  }
  const unhandled = env.HARNESS_UNHANDLED;
  if (unhandled !== undefined && !(UNHANDLED_MODES as readonly string[]).includes(unhandled)) {
    problems.push(`HARNESS_UNHANDLED is ${JSON.stringify(unhandled)}: expected one of ${UNHANDLED_MODES.map((mode) => JSON.stringify(mode)).join(', ')}.`);
  }
  const journal = env.HARNESS_JOURNAL === undefined ? true : JOURNAL_VALUES[env.HARNESS_JOURNAL.toLowerCase()];
  if (journal === undefined) problems.push(`HARNESS_JOURNAL is ${JSON.stringify(env.HARNESS_JOURNAL)}: expected "on" or "off".`);
  const token = env.HARNESS_TOKEN;
  if (token !== undefined && token.trim() === '') problems.push('HARNESS_TOKEN is set but empty: give it the token the tests send, or unset it.');
  const control = readControl(env, problems);
  const redisUrl = env.HARNESS_REDIS_URL;
  if (redisUrl !== undefined && !/^rediss?:\/\/./.test(redisUrl)) problems.push(`HARNESS_REDIS_URL is ${JSON.stringify(redactUrl(redisUrl))}: expected a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379.`);
  const sessionHost = redisUrl === undefined ? env[SESSION_HOST_VARIABLE] : undefined;
  const sessionPort = readSessionPort(env, problems);
  if (sessionHost !== undefined) {
    try {
      parseHostAddress(sessionHost);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (problems.length > 0) {
    throw new HarnessError('INVALID_OPTIONS', `scenario-harness/register cannot start:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
  return { scenarios, unhandled: unhandled as UnhandledCallStrategy | undefined, token, redisUrl, journal: journal!, control, sessionHost, sessionPort, notes: unknownVariables(env) };
}

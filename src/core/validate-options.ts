import { DEFAULT_ENDPOINTS } from './constants.js';
import { didYouMean } from './did-you-mean.js';
import { tokenProblem } from './access/token-problem.js';
import { describeValue, failOptions } from './option-problem.js';
import type { PartDefinition } from './parts/harness-part.js';
import type { HarnessOptions } from './types.js';

const UNHANDLED = ['bypass', 'warn', 'error'];
const ENDPOINTS = Object.keys(DEFAULT_ENDPOINTS);
const GET_ENDPOINTS = ['getScenario', 'getState', 'scenarios', 'journal', 'record', 'inspector', 'sessions', 'mocks', 'streams'] as const;
const LIMITS = ['maxBodyBytes', 'maxTestIdLength', 'maxTestMocks', 'maxTestMockBytes', 'maxTotalTestMockBytes', 'maxStateBytes'];

const describe: (value: unknown) => string = describeValue;
const fail: (message: string) => never = failOptions;

function checkHostList(name: string, hosts: unknown, orElse = ''): void {
  if (hosts === undefined) return;
  if (!Array.isArray(hosts)) fail(`expected "${name}" to be an array of host names or RegExps${orElse}, instead got ${describe(hosts)}.`);
  for (const [i, host] of hosts.entries()) {
    if (host instanceof RegExp) continue;
    if (typeof host !== 'string' || host === '' || /[/\s]/.test(host)) {
      fail(`expected "${name}[${i}]" to be a host name such as 'api.internal', 'api.internal:8080' or '*.internal' (no scheme, no path), or a RegExp, instead got ${describe(host)}.`);
    }
  }
}

function checkAccess(access: unknown): void {
  if (access === undefined) return;
  if (typeof access !== 'object' || access === null || Array.isArray(access)) {
    fail(`expected "access" to be { token } or { authorize }, instead got ${describe(access)}.`);
  }
  for (const key of Object.keys(access)) {
    if (key !== 'token' && key !== 'authorize') {
      const near = didYouMean(key, ['token', 'authorize']);
      fail(`"access.${key}" is not an access option${near === undefined ? '' : ` (did you mean "${near}"?)`}; use token or authorize.`);
    }
  }
  const { token, authorize } = access as Record<string, unknown>;
  if (token !== undefined && authorize !== undefined) {
    fail('"access" has both a token and authorize; give one. To accept the token and something else too, check both inside authorize (the request carries its Authorization header).');
  }
  if (authorize !== undefined && typeof authorize !== 'function') fail(`expected "access.authorize" to be a function (request) => boolean, instead got ${describe(authorize)}.`);
  if (token === undefined && authorize === undefined) {
    // Most often `access: { token: process.env.HARNESS_TOKEN }` with the variable unset: refuse rather than serve unprotected.
    fail('"access" is set but has neither a token nor authorize, so the control endpoints would be open. Is the token\'s environment variable (HARNESS_TOKEN) set? Give access: { token } or leave "access" out.');
  }
  if (token !== undefined) {
    const problem = tokenProblem(token, { minLength: 16 });
    if (problem !== undefined) fail(`"access.token" cannot be used: ${problem}.`);
  }
}

function checkControl(control: unknown): void {
  if (control === undefined) return;
  if (typeof control !== 'object' || control === null || Array.isArray(control)) {
    fail(`expected "control" to be { allowedHosts?, allowCrossSite? }, instead got ${describe(control)}.`);
  }
  const keys = ['allowedHosts', 'allowCrossSite'];
  for (const key of Object.keys(control)) {
    if (!keys.includes(key)) {
      const near = didYouMean(key, keys);
      fail(`"control.${key}" is not a control option${near === undefined ? '' : ` (did you mean "${near}"?)`}; use allowedHosts or allowCrossSite.`);
    }
  }
  const { allowedHosts, allowCrossSite } = control as Record<string, unknown>;
  if (allowedHosts !== '*') checkHostList('control.allowedHosts', allowedHosts, " or '*' for any");
  if (allowCrossSite !== undefined && typeof allowCrossSite !== 'boolean') fail(`expected "control.allowCrossSite" to be true or false, instead got ${describe(allowCrossSite)}.`);
}

/** Top-level names that belong in another option: the did-you-mean distance would point elsewhere. */
const MISPLACED: Record<string, string> = {
  allowedHosts: '"allowedHosts" is not an option: the Host names the control endpoints answer go in control: { allowedHosts }; the hosts outgoing calls may reach for real go in allowHosts.',
  allowCrossSite: '"allowCrossSite" is not an option; it goes in control: { allowCrossSite }.',
};

/** Every option `createHarness` takes (HarnessOptions); anything else is a typo that would be ignored. */
const OPTION_KEYS = ['enabled', 'scenarios', 'endpoints', 'unhandled', 'store', 'sideBySide', 'logger', 'announce', 'limits', 'allowHosts', 'propagate', 'recording', 'intercept', 'journal', 'access', 'control', 'contracts', 'allowProduction', 'timing'];

/** Check the option bag of `createHarness` (scenarios are checked by their own schema). */
export function validateOptions(options: HarnessOptions, parts: readonly PartDefinition[]): void {
  if (typeof options !== 'object' || options === null) fail(`expected an object, instead got ${describe(options)}.`);
  for (const key of Object.keys(options)) {
    if (OPTION_KEYS.includes(key)) continue;
    if (Object.hasOwn(MISPLACED, key)) fail(MISPLACED[key]!);
    const near = didYouMean(key, OPTION_KEYS);
    // JavaScript callers get no excess-property check: a misspelt `unhandeld` would silently leave the default in place.
    fail(`"${key}" is not an option${near === undefined ? '' : ` (did you mean "${near}"?)`}; the options are ${OPTION_KEYS.join(', ')}.`);
  }
  if (typeof options.enabled !== 'boolean') {
    fail(`expected "enabled" to be true or false, instead got ${describe(options.enabled)}. Set it from your environment, e.g. enabled: process.env.HARNESS_ENABLED === 'true'.`);
  }
  if (options.announce !== undefined && typeof options.announce !== 'boolean') {
    fail(`expected "announce" to be true or false, instead got ${describe(options.announce)}.`);
  }
  if (options.sideBySide !== undefined && typeof options.sideBySide !== 'boolean') {
    fail(`expected "sideBySide" to be true or false, instead got ${describe(options.sideBySide)}.`);
  }
  if (options.allowProduction !== undefined && typeof options.allowProduction !== 'boolean') {
    fail(`expected "allowProduction" to be true or false, instead got ${describe(options.allowProduction)}.`);
  }
  if (options.timing !== undefined && options.timing !== 'instant' && options.timing !== 'real') {
    fail(`expected "timing" to be 'instant' (no stream or mock delay waits) or 'real', instead got ${describe(options.timing)}.`);
  }
  const envTiming = process.env['HARNESS_TIMING'];
  if (options.enabled && options.timing === undefined && envTiming !== undefined && envTiming !== '' && envTiming !== 'instant' && envTiming !== 'real') {
    fail(`expected the environment variable HARNESS_TIMING to be 'instant' or 'real', instead got ${JSON.stringify(envTiming)}. Set HARNESS_TIMING=instant to send every stream at once, or unset it.`);
  }
  if (options.unhandled !== undefined && typeof options.unhandled !== 'function' && !UNHANDLED.includes(options.unhandled as string)) {
    fail(`expected "unhandled" to be 'bypass', 'warn', 'error' or a function, instead got ${describe(options.unhandled)}.`);
  }
  for (const [name, path] of Object.entries(options.endpoints ?? {})) {
    if (!ENDPOINTS.includes(name)) {
      const near = didYouMean(name, ENDPOINTS);
      fail(`"endpoints.${name}" is not an endpoint${near === undefined ? '' : ` (did you mean "${near}"?)`}; use ${ENDPOINTS.slice(0, -1).join(', ')} or ${ENDPOINTS.at(-1)}.`);
    }
    if (path !== undefined && (typeof path !== 'string' || !path.startsWith('/') || /[?#]/.test(path))) {
      fail(`expected "endpoints.${name}" to be a path starting with "/" (no query), instead got ${describe(path)}.`);
    }
  }
  // Each GET endpoint needs a path of its own; setScenario (POST, DELETE) may share one.
  // The inspector answers with and without its trailing slash, so paths are compared without it.
  const gets = GET_ENDPOINTS.map((name) => [name, options.endpoints?.[name] ?? DEFAULT_ENDPOINTS[name]] as const);
  const bare = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
  for (const [index, [name, path]] of gets.entries()) {
    const clash = gets.slice(index + 1).find(([, other]) => bare(other) === bare(path));
    if (clash !== undefined) fail(`"endpoints.${name}" and "endpoints.${clash[0]}" are both ${JSON.stringify(bare(path))}; both answer GET, so give them different paths.`);
  }
  // The browser's answer endpoint takes POST, as the switch, the state seed and the mocks do: a path of its own.
  const answerPath = bare(options.endpoints?.answer ?? DEFAULT_ENDPOINTS.answer);
  const sharing = [...gets, ['setScenario', options.endpoints?.setScenario ?? DEFAULT_ENDPOINTS.setScenario] as const].find(([, other]) => bare(other) === answerPath);
  if (sharing !== undefined) fail(`"endpoints.answer" and "endpoints.${sharing[0]}" are both ${JSON.stringify(answerPath)}; give the browser's answer endpoint a path of its own.`);
  if (options.limits !== undefined) {
    if (typeof options.limits !== 'object' || options.limits === null) fail(`expected "limits" to be an object, instead got ${describe(options.limits)}.`);
    for (const [name, value] of Object.entries(options.limits)) {
      if (!LIMITS.includes(name)) fail(`"limits.${name}" is not a limit; use ${LIMITS.slice(0, -1).join(', ')} or ${LIMITS.at(-1)}.`);
      if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < 1)) {
        fail(`expected "limits.${name}" to be a positive whole number, instead got ${describe(value)}.`);
      }
    }
  }
  checkHostList('allowHosts', options.allowHosts);
  if (options.propagate !== undefined) {
    if (typeof options.propagate !== 'object' || options.propagate === null) fail(`expected "propagate" to be { hosts: [...] }, instead got ${describe(options.propagate)}.`);
    checkHostList('propagate.hosts', options.propagate.hosts);
  }
  // A disabled harness ignores `access`: an unset token in production must not stop the app.
  if (options.enabled) checkAccess(options.access);
  checkControl(options.control);
  if (options.store !== undefined) {
    for (const method of ['read', 'activate', 'advanceSequence', 'updateState', 'end'] as const) {
      if (typeof (options.store as unknown as Record<string, unknown>)[method] !== 'function') {
        fail(`"store" is missing the method ${method}(); pass a SessionStore such as createMemoryStore() or createRedisStore().`);
      }
    }
  }
  // Each part checks the options it owns (the journal's, the contracts').
  for (const part of parts) part.checkOptions?.(options);
}

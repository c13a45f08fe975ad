import { HarnessError } from './errors.js';
import type { HarnessOptions } from './types.js';

const UNHANDLED = ['bypass', 'warn', 'error'];
const LIMITS = ['maxBodyBytes', 'maxTestIdLength'];

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' ? JSON.stringify(value) : typeof value;
}

function fail(message: string): never {
  throw new HarnessError('INVALID_OPTIONS', `Invalid createHarness options: ${message}`);
}

function checkHostList(name: string, hosts: unknown): void {
  if (hosts === undefined) return;
  if (!Array.isArray(hosts)) fail(`expected "${name}" to be an array of host names or RegExps, instead got ${describe(hosts)}.`);
  for (const [i, host] of hosts.entries()) {
    if (host instanceof RegExp) continue;
    if (typeof host !== 'string' || host === '' || /[/\s]/.test(host)) {
      fail(`expected "${name}[${i}]" to be a host name such as 'api.internal', 'api.internal:8080' or '*.internal' (no scheme, no path), or a RegExp, instead got ${describe(host)}.`);
    }
  }
}

/** Check the option bag of `createHarness` (scenarios are checked by their own schema). */
export function validateOptions(options: HarnessOptions): void {
  if (typeof options !== 'object' || options === null) fail(`expected an object, instead got ${describe(options)}.`);
  if (typeof options.enabled !== 'boolean') {
    fail(`expected "enabled" to be true or false, instead got ${describe(options.enabled)}. Set it from your environment, e.g. enabled: process.env.NODE_ENV === 'test'.`);
  }
  if (options.unhandled !== undefined && typeof options.unhandled !== 'function' && !UNHANDLED.includes(options.unhandled as string)) {
    fail(`expected "unhandled" to be 'bypass', 'warn', 'error' or a function, instead got ${describe(options.unhandled)}.`);
  }
  for (const [name, path] of Object.entries(options.endpoints ?? {})) {
    if (!['setScenario', 'getScenario', 'getState'].includes(name)) fail(`"endpoints.${name}" is not an endpoint; use setScenario, getScenario or getState.`);
    if (path !== undefined && (typeof path !== 'string' || !path.startsWith('/') || /[?#]/.test(path))) {
      fail(`expected "endpoints.${name}" to be a path starting with "/" (no query), instead got ${describe(path)}.`);
    }
  }
  if (options.limits !== undefined) {
    if (typeof options.limits !== 'object' || options.limits === null) fail(`expected "limits" to be an object, instead got ${describe(options.limits)}.`);
    for (const [name, value] of Object.entries(options.limits)) {
      if (!LIMITS.includes(name)) fail(`"limits.${name}" is not a limit; use ${LIMITS.join(' or ')}.`);
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
  if (options.store !== undefined) {
    for (const method of ['read', 'activate', 'advanceSequence', 'updateState', 'end'] as const) {
      if (typeof (options.store as unknown as Record<string, unknown>)[method] !== 'function') {
        fail(`"store" is missing the method ${method}(); pass a SessionStore such as createMemoryStore() or createRedisStore().`);
      }
    }
  }
}

import type { CompiledScenario } from '../engine/compile-scenarios.js';
import { isSecretHeaderName } from '../journal/redact-headers.js';

const REDACTED = '[redacted]';

/** True when a template expression reads a secret header, or a state key already known to hold one. */
function readsSecret(expression: string, isSecretHeader: (name: string) => boolean, secretKeys: ReadonlySet<string>): boolean {
  const [source, ...segments] = expression.split('.');
  const path = segments.join('.');
  if (source === 'headers') return path === '' || isSecretHeader(path);
  if (source !== 'state' || secretKeys.size === 0) return false;
  if (path === '') return true;
  // `state.session.token` reads the key `session.token`, or `session` and then its `token` (template.ts): either may hold it.
  for (const key of secretKeys) if (path === key || path.startsWith(`${key}.`) || key.startsWith(`${path}.`)) return true;
  return false;
}

/**
 * The state keys some mock's `afterResponse.setState` fills from a secret request header
 * (`{ auth: '{{headers.authorization}}' }`), directly or through another such key
 * (`{ copy: '{{state.auth}}' }`). Found once, from the definitions.
 */
function secretStateKeys(scenarios: ReadonlyMap<string, CompiledScenario>, isSecretHeader: (name: string) => boolean): ReadonlySet<string> {
  const writes = [...scenarios.values()]
    .flatMap((scenario) => [scenario.mocks, ...scenario.variants.values()])
    .flatMap((layer) => layer.all)
    .flatMap((mock) => mock.setState ?? []);
  const secret = new Set<string>();
  // Until nothing changes: a copy of a copy of a token is a token too.
  for (let grew = true; grew; ) {
    grew = false;
    for (const { key, value } of writes) {
      if (secret.has(key) || !value.reads.some((expression) => readsSecret(expression, isSecretHeader, secret))) continue;
      secret.add(key);
      grew = true;
    }
  }
  return secret;
}

/**
 * The state as the state endpoint (and so the inspector) shows it: the value of each key filled
 * from a secret header is `[redacted]`, by the journal's rule for secret headers
 * (`journal.redactHeaders` adds names; `false` turns redaction off). The store keeps the real
 * value: templates (`{{state.auth}}`) and `harness.getState()` in the app's process read it.
 * @note Redacted in the view, not in the store, since a mock that forwards a token the app sent
 * (`headers: { authorization: '{{state.auth}}' }`) needs the token itself (issue 23).
 */
export function createStateRedactor(
  scenarios: ReadonlyMap<string, CompiledScenario>,
  redactHeaders: readonly string[] | false,
): (state: Record<string, unknown>) => Record<string, unknown> {
  if (redactHeaders === false) return (state) => state;
  const extra = new Set(redactHeaders.map((name) => name.toLowerCase()));
  const keys = secretStateKeys(scenarios, (name) => extra.has(name.toLowerCase()) || isSecretHeaderName(name));
  if (keys.size === 0) return (state) => state;
  return (state) => {
    let out: Record<string, unknown> | undefined;
    for (const key of keys) {
      if (!Object.hasOwn(state, key)) continue;
      out ??= { ...state };
      // defineProperty, so a key named "__proto__" stays an own key.
      Object.defineProperty(out, key, { value: REDACTED, enumerable: true, writable: true, configurable: true });
    }
    return out ?? state;
  };
}

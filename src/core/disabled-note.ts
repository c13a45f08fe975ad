import type { Logger } from './dev-utils.js';

/** Set on `globalThis` once the line is written: a dev server evaluating the module again says nothing new. */
const SAID = Symbol.for('scenario-harness.disabled-note');

/**
 * The one line a harness created disabled writes, or `undefined` when it stays silent: in
 * production (`NODE_ENV=production`, where off is the point), under a test runner
 * (`NODE_ENV=test`: a test that creates a disabled harness does so on purpose, and a switch sent
 * to an app left off fails with the client's "answered 404 … enabled" error), and when
 * `HARNESS_ENABLED` says `false` or `0` (the person starting the app chose off).
 *
 * @example
 * disabledNote({ HARNESS_ENABLED: '1' }, '/__scenario__');
 * // 'disabled: enabled is false (HARNESS_ENABLED is "1", not "true"), so …'
 */
export function disabledNote(env: NodeJS.ProcessEnv, switchPath: string): string | undefined {
  if (env.NODE_ENV === 'production' || env.NODE_ENV === 'test') return undefined;
  const value = env.HARNESS_ENABLED;
  if (value === 'false' || value === '0') return undefined;
  const why =
    value === undefined
      ? 'HARNESS_ENABLED is not set'
      : value === 'true'
        ? 'although HARNESS_ENABLED is "true": check how the app computes the enabled option'
        : `HARNESS_ENABLED is ${JSON.stringify(value)}, not "true"`;
  return (
    `disabled: enabled is false (${why}), so no outgoing call is intercepted and ${switchPath} is not served (the app answers it, often with 404). ` +
    `To turn it on for tests, start the app with HARNESS_ENABLED=true (where your code creates the harness, with enabled: process.env.HARNESS_ENABLED === 'true'; the Nuxt module and scenario-harness/register read the variable themselves); never in production. ` +
    `(Logged once; HARNESS_ENABLED=false or announce: false silences it.)`
  );
}

/** Write the disabled note once per process, if there is one to write. */
export function sayDisabledOnce(logger: Logger, switchPath: string, env: NodeJS.ProcessEnv = (globalThis as { process?: { env: NodeJS.ProcessEnv } }).process?.env ?? {}): void {
  const registry = globalThis as { [SAID]?: true };
  if (registry[SAID]) return;
  const note = disabledNote(env, switchPath);
  if (note === undefined) return;
  registry[SAID] = true;
  logger.info?.(note);
}

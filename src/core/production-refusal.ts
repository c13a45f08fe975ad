import type { HarnessOptions } from './types.js';

/** The environment variable that lets an enabled harness without `access` start under `NODE_ENV=production`. */
export const ALLOW_PRODUCTION_ENV = 'HARNESS_ALLOW_PRODUCTION';

/** `process.env` where there is one (Node, Bun, Deno); an edge runtime without it counts as no production. */
function processEnv(): NodeJS.ProcessEnv {
  return (globalThis as { process?: { env?: NodeJS.ProcessEnv } }).process?.env ?? {};
}

/**
 * Why an enabled harness must not start here, or `undefined` when it may: under
 * `NODE_ENV=production` without `access`, anyone who reaches the app could switch `default-test`
 * (the scenario of every request without a test ID: every real user's) and read what tests
 * captured (issue 37.13). `access`, `allowProduction: true` or `HARNESS_ALLOW_PRODUCTION=true`
 * lets it start. Read at `start()`: Next.js sets `NODE_ENV` after modules are evaluated, and
 * `next build` evaluates them without starting anything.
 *
 * @example
 * productionRefusal({ access: undefined, allowProduction: undefined }, { NODE_ENV: 'production' });
 * // 'Failed to start the harness: NODE_ENV is "production" and …'
 * @see https://github.com/scenario-harness/scenario-harness/blob/main/docs/reliability-and-security.md#production-safety
 */
export function productionRefusal({ access, allowProduction }: Pick<HarnessOptions, 'access' | 'allowProduction'>, env: NodeJS.ProcessEnv = processEnv()): string | undefined {
  if (env.NODE_ENV !== 'production' || access !== undefined || allowProduction === true) return undefined;
  const allowed = env[ALLOW_PRODUCTION_ENV];
  if (allowed === 'true') return undefined;
  const given = allowed === undefined ? '' : ` (${ALLOW_PRODUCTION_ENV} is ${JSON.stringify(allowed)}, not "true")`;
  return (
    `Failed to start the harness: NODE_ENV is "production" and the harness is enabled without access control${given}, so anyone who reaches this app could switch the scenario of every request without a test ID (default-test: what real users get) and read what the tests captured. ` +
    'In production, leave the harness off (HARNESS_ENABLED unset: enabled: false). To test a production build on purpose (next start, a staging deployment), require a token: createHarness({ access: { token: process.env.HARNESS_TOKEN } }), or HARNESS_TOKEN under scenario-harness/register; ' +
    `or, on a machine only your tests reach, allow it deliberately with ${ALLOW_PRODUCTION_ENV}=true (createHarness({ allowProduction: true })).`
  );
}

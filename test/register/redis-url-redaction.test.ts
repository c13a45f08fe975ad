/**
 * `scenario-harness/register` never prints HARNESS_REDIS_URL's password (issue 37.12): a mistyped
 * URL and an unreachable Redis stop the app with the URL shown as `redis://user:***@host:port`.
 * @see https://github.com/scenario-harness/scenario-harness/issues/37
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startUpstream, type Upstream } from '../conformance/upstream.js';
import { freePort } from '../support/free-port.js';
import { cleanEnv, CONFORMANCE_SCENARIOS, PLAIN_APP, runWithRegister } from './start-registered-app.js';

const PASSWORD = 's3cret-redis-pw';
let upstream: Upstream;
beforeAll(async () => (upstream = await startUpstream()));
afterAll(() => upstream?.close());

const withRedisUrl = (url: string) => cleanEnv({ FRAMEWORK: 'node', UPSTREAM_ORIGIN: upstream.origin, HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: CONFORMANCE_SCENARIOS, HARNESS_REDIS_URL: url });

test('a mistyped HARNESS_REDIS_URL stops the app, quoted without its password', async () => {
  for (const [typed, shown] of [
    [`http://admin:${PASSWORD}@127.0.0.1:6379`, 'http://admin:***@127.0.0.1:6379'],
    [`redis//admin:${PASSWORD}@127.0.0.1:6379`, 'redis//admin:***@127.0.0.1:6379'],
    [`admin:${PASSWORD}@127.0.0.1:6379`, 'admin:***@127.0.0.1:6379'],
  ]) {
    const { code, stderr } = await runWithRegister(PLAIN_APP, withRedisUrl(typed!));
    expect(code).toBe(1);
    expect(stderr).toContain(`HARNESS_REDIS_URL is "${shown}": expected a redis:// or rediss:// URL`);
    expect(stderr).not.toContain(PASSWORD);
  }
});

test('an unreachable Redis stops the app, named without the password, in one sentence', async () => {
  const port = await freePort();
  const { code, stdout, stderr } = await runWithRegister(PLAIN_APP, withRedisUrl(`redis://admin:${PASSWORD}@127.0.0.1:${port}`));
  expect(code).toBe(1);
  expect(stdout).not.toContain('listening');
  expect(stderr).toContain(`[scenario-harness] Failed to connect to Redis at redis://admin:***@127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}. Check that Redis runs there and that the URL (HARNESS_REDIS_URL redis://host:port) is right.\n`);
  expect(stderr).not.toContain(PASSWORD);
});

/**
 * `scenario-harness serve --redis <url>` never prints the URL's password (issue 37.12): not for a
 * mistyped URL, not for an unreachable Redis, not in the start-up line, not when Redis drops
 * later, and not in the health check's 503 when Redis hangs. Each shows `redis://user:***@host:port`.
 * @see https://github.com/scenario-harness/scenario-harness/issues/37
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { connectNodeRedis, type NodeRedisClient } from '../redis/clients.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../redis/redis-server.js';
import { freePort } from '../support/free-port.js';
import { runCli, startServe, type ServeProcess } from './serve-process.js';

const SHOP = fileURLToPath(new URL('./fixtures/shop.yaml', import.meta.url));
const PASSWORD = 's3cret-redis-pw';

test('a mistyped --redis URL is quoted without its password', async () => {
  const { code, stderr } = await runCli(['serve', '--port', '0', '--redis', `http://admin:${PASSWORD}@127.0.0.1:6379`, SHOP]);
  expect(code).toBe(1);
  expect(stderr).toContain('Expected --redis to be a redis:// or rediss:// URL, instead got "http://admin:***@127.0.0.1:6379".');
  expect(stderr).not.toContain(PASSWORD);
});

test('an unreachable Redis is named without the password, in one sentence', async () => {
  const port = await freePort();
  const { code, stderr } = await runCli(['serve', '--port', '0', '--redis', `redis://admin:${PASSWORD}@127.0.0.1:${port}`, SHOP]);
  expect(code).toBe(1);
  expect(stderr).toContain(`Failed to connect to Redis at redis://admin:***@127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}. Check that Redis runs there`);
  // The advice once came twice (the connect error wrapped the start-up error again).
  expect(stderr.match(/Check that Redis runs there/g)).toHaveLength(1);
  expect(stderr).not.toContain(PASSWORD);
});

if (!hasRedisServer()) {
  test.skip('serve with a password-protected Redis needs redis-server (sudo apt-get install -y redis-server)', () => {});
} else {
  let redis: RedisServer;
  let admin: NodeRedisClient;
  let serve: ServeProcess;
  let redisPid: number;
  let url: string;

  beforeAll(async () => {
    redis = await startRedisServer();
    admin = await connectNodeRedis(redis.url);
    await admin.configSet('requirepass', PASSWORD);
    redisPid = Number(/process_id:(\d+)/.exec(await admin.info('server'))![1]);
    url = `redis://default:${PASSWORD}@127.0.0.1:${redis.port}`;
    serve = await startServe(['--redis', url, SHOP], { env: { HARNESS_TOKEN: '', HARNESS_ALLOWED_HOSTS: '' } });
  });
  afterAll(async () => {
    await serve?.stop();
    await admin?.destroy();
    await redis?.stop();
  });

  test('the start-up line, a hung Redis in the health check and a dropped Redis in the log show no password', async () => {
    expect(serve.output()).toContain(`store: redis at redis://default:***@127.0.0.1:${redis.port} (redis)`);
    expect((await fetch(`${serve.url}/__harness__/health`)).status).toBe(200);

    // A Redis that stops answering (SIGSTOP): the health check gives up after its 2 s PING limit and says why.
    process.kill(redisPid, 'SIGSTOP');
    let health: { status: string; error: string };
    try {
      const response = await fetch(`${serve.url}/__harness__/health`);
      expect(response.status).toBe(503);
      health = (await response.json()) as typeof health;
    } finally {
      process.kill(redisPid, 'SIGCONT');
    }
    expect(health.error).toBe(`Redis at redis://default:***@127.0.0.1:${redis.port} did not answer a PING within 2000 ms`);

    // A Redis that goes away: the server logs the lost connection and keeps retrying.
    const before = serve.output().length;
    await redis.stop();
    await serve.waitForOutput(/Retrying; calls fail until it is back/, before);
    expect(serve.output().slice(before)).toContain(`Redis at redis://default:***@127.0.0.1:${redis.port}: `);
    expect(serve.output()).not.toContain(PASSWORD);
  });
}

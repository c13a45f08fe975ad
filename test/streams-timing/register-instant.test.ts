/**
 * `HARNESS_TIMING=instant` reaches the harness `--import scenario-harness/register` creates: a
 * mock's 3-second `delay` goes at once in an app with no line of scenario-harness in it.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { cleanEnv, PLAIN_APP, startWithRegister } from '../register/start-registered-app.js';

const scenarios = { default: { name: 'Default', mocks: [{ url: 'https://up.x.test/upstream/greeting', response: { delay: 3000, body: { greeting: 'late hello' } } }] } };

test('register with HARNESS_TIMING=instant: a 3-second delay goes at once', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'timing-register-'));
  const file = join(dir, 'slow.json');
  await writeFile(file, JSON.stringify(scenarios));
  const app = await startWithRegister(PLAIN_APP, cleanEnv({ HARNESS_ENABLED: 'true', HARNESS_SCENARIOS: file, HARNESS_TIMING: 'instant', FRAMEWORK: 'node', UPSTREAM_ORIGIN: 'https://up.x.test' }));
  try {
    const started = performance.now();
    const answer = await (await fetch(app.url('/greeting'))).json();
    expect(answer).toEqual({ greeting: 'late hello' });
    expect(performance.now() - started).toBeLessThan(1500);
  } finally {
    await app.close();
  }
});

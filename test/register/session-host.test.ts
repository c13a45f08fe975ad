/**
 * The sessions a process tree shares under register: a store joined over loopback behaves as the
 * host's own store (arguments left out stay left out), and a host that is gone or a wrong secret
 * fails calls at once as STORE_UNAVAILABLE (the control API's 503), never hangs them. Nothing a
 * peer sends throws on either side: the host closes a connection whose greeting is not one
 * (too long, too late, the wrong shape, the wrong proof), and a child whose "host" cannot prove it
 * holds the secret sends it nothing but its challenge (issue 37, items 1 to 3).
 */
import { connect, createServer } from 'node:net';
import { afterAll, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/core/store/memory-store.js';
import { hostSessions, type SessionHost } from '../../src/core/store/process-tree/host-sessions.js';
import { joinSessions } from '../../src/core/store/process-tree/join-sessions.js';

const hosts: SessionHost[] = [];
afterAll(() => Promise.all(hosts.map((host) => host.close())));

async function joined() {
  const store = createMemoryStore();
  const host = await hostSessions(store);
  hosts.push(host);
  return { store, host, remote: joinSessions(host.address) };
}

test('a joined store reads and writes the host store, in one order', async () => {
  const { store, remote } = await joined();
  await remote.activate('t1', { scenarioId: 'other', variant: 'v' });
  expect(await store.read('t1')).toMatchObject({ active: { scenarioId: 'other', variant: 'v' } });
  const positions = await Promise.all([0, 1, 2].map(() => remote.advanceSequence('t1', 'mock-0', 2, 'none')));
  expect(positions).toEqual([0, 1, undefined]);
  // No generation: written unconditionally (JSON carries the missing argument as null, which must not count as a generation).
  await remote.updateState('t1', [{ key: 'items', value: 1, append: true }]);
  await remote.updateState('t1', [{ key: 'items', value: 2, append: true }], (await remote.read('t1'))!.generation);
  await remote.updateState('t1', [{ key: 'items', value: 3, append: true }], 'an older generation');
  expect((await store.read('t1'))?.state).toEqual({ items: [1, 2] });
  const page = await remote.listSessions!(undefined, 10);
  expect(page.sessions.map((session) => session.testId)).toEqual(['t1']);
  await remote.setRecording!('t1', undefined);
  await remote.end('t1');
  expect(await store.read('t1')).toBeUndefined();
  expect(await remote.read('t1')).toBeUndefined();
  await remote.close!();
});

test('a wrong secret is refused: the call fails as STORE_UNAVAILABLE at once', async () => {
  const { host } = await joined();
  const forged = joinSessions(host.address.replace(/\/[0-9a-f]+$/, `/${'0'.repeat(48)}`));
  await expect(forged.read('t1')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining('did not prove that it holds the session secret') });
});

test('a host that is gone fails each call as STORE_UNAVAILABLE, saying the first process may have exited', async () => {
  const { host } = await joined();
  await host.close();
  const orphan = joinSessions(host.address);
  await expect(orphan.read('t1')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringContaining('it may have exited') });
});

test('an address register did not write is refused with what to do', () => {
  expect(() => joinSessions('10.0.0.1:80/abc')).toThrow(/HARNESS_SESSION_HOST is "10\.0\.0\.1:80\/abc", which is not an address register wrote\..*unset it/);
});

/** Open a raw connection to `port`, write `text`, and collect what comes back until the other end closes it. */
function rawExchange(port: number, text: string | Buffer): Promise<{ received: string }> {
  return new Promise((resolve) => {
    let received = '';
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(text));
    socket.on('data', (chunk) => (received += chunk.toString()));
    // The host may close while the bytes are still being written: that is the point.
    socket.on('error', () => {});
    socket.on('close', () => resolve({ received }));
  });
}

const portOf = (address: string) => Number(/:(\d+)\//.exec(address)![1]);

test('a line that is not the greeting, or any message a host does not take, closes that connection only: the host and its other connections go on', async () => {
  const { host, remote, store } = await joined();
  await remote.activate('kept', { scenarioId: 'other' });
  const hello = JSON.stringify({ hello: 'a'.repeat(64) });
  for (const text of ['1', 'null', '"x"', 'true', '[]', '{}', 'not json', '{"hello":5}', '{"hello":"short"}', '{"id":1,"method":"read","args":["kept"]}', `${hello}\n{"proof":"${'0'.repeat(64)}"}`, `${hello}\n1`]) {
    const { received } = await rawExchange(portOf(host.address), `${text}\n`);
    // Nothing but the host's own challenge (after a well-formed hello) ever goes back: no answer, no error text.
    expect(received.split('\n').filter(Boolean).every((line) => Object.keys(JSON.parse(line)).join() === 'nonce,proof')).toBe(true);
  }
  // The connection opened before, and a new one after, still read the sessions.
  const after = joinSessions(host.address);
  expect(await remote.read('kept')).toMatchObject({ active: { scenarioId: 'other' } });
  expect(await after.read('kept')).toMatchObject({ active: { scenarioId: 'other' } });
  expect((await store.read('kept'))?.active).toEqual({ scenarioId: 'other' });
  await Promise.all([remote.close(), after.close()]);
});

test('before the greeting a line may have 1 KiB: a longer one without a newline is refused at once, without waiting for the deadline', async () => {
  const store = createMemoryStore();
  const host = await hostSessions(store, { greetingTimeoutMs: 600_000 });
  hosts.push(host);
  const started = performance.now();
  // 40 MiB with no newline, as in the report: the host ends the connection after its first KiB.
  await rawExchange(portOf(host.address), Buffer.alloc(40 * 1024 * 1024, 'a'));
  expect(performance.now() - started).toBeLessThan(20_000);
  const child = joinSessions(host.address);
  expect(await child.read('t')).toBeUndefined();
  await child.close();
});

test('a connection that does not complete the greeting in time is closed: silent, or greeted without its proof', async () => {
  const host = await hostSessions(createMemoryStore(), { greetingTimeoutMs: 200 });
  hosts.push(host);
  expect(await rawExchange(portOf(host.address), '')).toEqual({ received: '' });
  const greeted = await rawExchange(portOf(host.address), `${JSON.stringify({ hello: 'b'.repeat(64) })}\n`);
  expect(Object.keys(JSON.parse(greeted.received))).toEqual(['nonce', 'proof']);
});

/** A program on the port a child was told to join that is not the host: it records what it gets and answers `reply` (or nothing). */
async function impostor(reply: ((line: string) => string) | undefined) {
  let received = '';
  const server = createServer((socket) => {
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      received += chunk.toString();
      if (reply !== undefined) socket.write(reply(chunk.toString()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, received: () => received, close: () => new Promise<void>((done) => server.close(() => done())) };
}

const IMPOSTOR_REPLIES: Record<string, ((line: string) => string) | undefined> = {
  'answers nothing': undefined,
  'answers HTML': () => '<html>taken</html>\n',
  'answers a number': () => '1\n',
  'answers null': () => 'null\n',
  'answers a string': () => '"x"\n',
  'answers an answer without a greeting': () => '{"id":1,"result":{"active":{"scenarioId":"evil"}}}\n',
  'answers a greeting with a proof it cannot make': () => `${JSON.stringify({ nonce: 'c'.repeat(64), proof: 'd'.repeat(64) })}\n`,
  'answers a greeting that replays the child’s own challenge': (line) => `${JSON.stringify({ nonce: (JSON.parse(line) as { hello: string }).hello, proof: 'e'.repeat(64) })}\n`,
  'answers a greeting line of 2 MiB': () => `{"nonce":"${'f'.repeat(2 * 1024 * 1024)}"}\n`,
};

for (const [behaviour, reply] of Object.entries(IMPOSTOR_REPLIES)) {
  test(`a program on the host's port that ${behaviour} never gets the secret or a call, and the child's calls fail as STORE_UNAVAILABLE`, async () => {
    const fake = await impostor(reply);
    const secret = '9'.repeat(48);
    const child = joinSessions(`127.0.0.1:${fake.port}/${secret}`, { greetingTimeoutMs: 300 });
    const unpin = child.pin!('t1');
    const calls = [child.read('t1'), child.appendCall!('t1', { at: new Date(0).toISOString(), method: 'POST', url: 'https://api.pay.test/charge', requestHeaders: {}, requestBody: 'card=4242424242424242', answered: true, durationMs: 1 }, 10)];
    for (const call of calls) await expect(call).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/did not prove that it holds the session secret|no proof that it is that process within 0\.3 s/) });
    unpin();
    await child.close();
    await fake.close();
    // All it ever got: the child's challenge, one line.
    expect(fake.received()).not.toContain(secret);
    expect(fake.received()).toMatch(/^\{"hello":"[0-9a-f]{64}"\}\n$/);
  });
}

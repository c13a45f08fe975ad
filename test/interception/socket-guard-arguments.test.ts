/**
 * Issue 23, item 11: the socket guard read `connect()`'s arguments differently from Node. Node
 * connects over TCP when `path` is `null` or `''`, and takes the string `' 443'` as port 443; the
 * guard took the first two for IPC paths and the third for a pipe name, and let them through.
 * Each now meets the guard before any connection or DNS lookup (the tripwire counts none).
 */
import net from 'node:net';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { installTripwire } from './tripwire.js';

const tripwire = installTripwire();
const harness = createHarness({ enabled: true, announce: false, unhandled: 'error', logger: { info() {}, warn() {}, error() {} }, scenarios: { default: { name: 'D', mocks: [] } } });
beforeAll(() => harness.start());
afterAll(async () => {
  await harness.stop();
  tripwire.remove();
});

/** The error a socket ends with once `connect` ran on it. */
const errorOf = (connect: (socket: net.Socket) => void) =>
  new Promise<string>((resolve) => {
    const socket = new net.Socket();
    socket.once('error', (error) => resolve(error.message));
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    connect(socket);
  });

const CONNECTS: Record<string, (socket: net.Socket) => void> = {
  "connect({ host, port, path: null })": (socket) => socket.connect({ host: 'db.partner.example', port: 5432, path: null } as unknown as net.NetConnectOpts),
  "connect({ host, port, path: '' })": (socket) => socket.connect({ host: 'db.partner.example', port: 5432, path: '' } as unknown as net.NetConnectOpts),
  "connect(' 443', host)": (socket) => (socket.connect as unknown as (port: string, host: string) => net.Socket)(' 443', 'api.partner.example'),
};

for (const [how, connect] of Object.entries(CONNECTS)) {
  test(`${how} is refused by the harness before any lookup`, async () => {
    expect(await errorOf(connect)).toContain('[scenario-harness] Blocked a connection to');
    expect(tripwire.attempts).toEqual([]);
  });
}

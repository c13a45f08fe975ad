// Child process of bench/sockets.js (the browser part): an Express app with scenario-harness whose
// scenario has a socket mock answering {"type":"ping"} with {"type":"pong"}, the reference (a
// plain `ws` server on loopback answering the same in its 'message' handler), and a page at `/`.
// Reports both ports over IPC once they listen.
import express from 'express';
import { WebSocketServer } from 'ws';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { failChild } from './lib/proc.js';

// The copy of dist/ bench/sockets.js took at its start (else dist/ itself).
const build = process.env.BENCH_SOCKETS_BUILD ?? path.join(import.meta.dirname, '..');
const { createHarness } = await import(pathToFileURL(path.join(build, 'dist', 'index.js')).href);
const { harnessMiddleware } = await import(pathToFileURL(path.join(build, 'dist', 'adapters', 'express.js')).href);

try {
  const harness = createHarness({
    enabled: true,
    announce: false,
    unhandled: 'error',
    scenarios: {
      default: {
        name: 'Default',
        mocks: [],
        sockets: [{ url: process.env.BENCH_SOCKET_URL, on: [{ match: { json: { type: 'ping' } }, steps: [{ send: { json: { type: 'pong' } } }] }] }],
      },
    },
  });
  await harness.start();
  const reference = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  reference.on('connection', (ws) =>
    ws.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
    }),
  );
  await new Promise((resolve) => reference.once('listening', resolve));
  const app = express();
  app.use(harnessMiddleware(harness));
  app.get('/', (_req, res) => res.type('html').send('<!doctype html><title>sockets bench</title>'));
  const server = app.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port, referencePort: reference.address().port }));
} catch (error) {
  failChild(error);
}

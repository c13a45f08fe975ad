/**
 * Nothing escapes: with `unhandled: 'error'`, a call no mock answers never leaves the machine,
 * whatever client made it. The tripwire is installed before the harness starts (client-app.ts)
 * and refuses and counts every DNS lookup of, and TCP connection to, a non-loopback host; after
 * an unanswered call with every client below it has counted nothing.
 */
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Octokit } from '@octokit/rest';
import axios from 'axios';
import got from 'got';
import ky from 'ky';
import { randomUUID } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Writable } from 'node:stream';
import tls from 'node:tls';
import nodeFetch from 'node-fetch';
import OpenAI from 'openai';
import Stripe from 'stripe';
import superagent from 'superagent';
import { Client, Pool, fetch as undiciFetch, request, stream } from 'undici';
import { afterAll, expect, test } from 'vitest';
import { errorMessages } from './error-messages.js';
import { useClientApp } from './use-client-app.js';

// Every client is built at import time, before the harness (and the tripwire) exist.
const PARTNER = 'https://api.partner.example';
const capturedFetch = globalThis.fetch;
const undiciClient = new Client(PARTNER);
const undiciPool = new Pool(PARTNER, { connections: 2 });
const stripe = new Stripe('sk_test_not_a_real_key', { maxNetworkRetries: 0 });
const openai = new OpenAI({ apiKey: 'sk-test-not-a-real-key', maxRetries: 0 });
const quiet = () => {};
const octokit = new Octokit({ auth: 'ghp_not_a_real_token', log: { debug: quiet, info: quiet, warn: quiet, error: quiet } });
const s3 = new S3Client({ region: 'eu-west-1', credentials: { accessKeyId: 'AKIDNOTAREALKEY', secretAccessKey: 'not-a-real-secret' }, maxAttempts: 1 });
afterAll(() => Promise.all([undiciClient.close(), undiciPool.close()]));

/** Resolve with the response status of a node:http(s) GET, or reject with its error. */
function nodeGet(module: typeof http | typeof https, url: string): Promise<number> {
  return new Promise((resolve, reject) => module.get(url, (response) => (response.resume(), resolve(response.statusCode!))).on('error', reject));
}

/** Open a raw socket; resolve only if it connected. */
function rawSocket(open: () => net.Socket, connectedEvent: 'connect' | 'secureConnect'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = open();
    socket.once(connectedEvent, () => (socket.destroy(), resolve('connected')));
    socket.once('error', reject);
  });
}

/**
 * Each client's unanswered call, and how the harness stops it: `unhandled` calls reach an
 * interception layer and fail with the test ID; `blocked` ones open a socket no layer sees, and
 * the socket guard refuses the connection before any DNS lookup.
 */
const CLIENTS: Record<string, { stoppedAs: 'unhandled' | 'blocked'; target: string; call: () => Promise<unknown> }> = {
  'global fetch': { stoppedAs: 'unhandled', target: `GET ${PARTNER}/v1/ping`, call: () => fetch(`${PARTNER}/v1/ping`) },
  'fetch captured before start()': { stoppedAs: 'unhandled', target: `GET ${PARTNER}/v1/ping`, call: () => capturedFetch(`${PARTNER}/v1/ping`) },
  'undici.request': { stoppedAs: 'unhandled', target: `GET ${PARTNER}/v1/ping`, call: () => request(`${PARTNER}/v1/ping`) },
  'undici.fetch': { stoppedAs: 'unhandled', target: `GET ${PARTNER}/v1/ping`, call: () => undiciFetch(`${PARTNER}/v1/ping`) },
  'undici.stream': {
    stoppedAs: 'unhandled',
    target: `GET ${PARTNER}/v1/ping`,
    call: () => stream(`${PARTNER}/v1/ping`, { method: 'GET' }, () => new Writable({ write: (_chunk, _encoding, done) => done() })),
  },
  'ky': { stoppedAs: 'unhandled', target: `GET ${PARTNER}/v1/ping`, call: () => ky(`${PARTNER}/v1/ping`, { retry: 0 }) },
  'node-fetch': { stoppedAs: 'unhandled', target: `GET ${PARTNER}/v1/ping`, call: () => nodeFetch(`${PARTNER}/v1/ping`) },
  'superagent': { stoppedAs: 'unhandled', target: `GET ${PARTNER}/v1/ping`, call: () => superagent.get(`${PARTNER}/v1/ping`) },
  'axios': { stoppedAs: 'unhandled', target: `GET ${PARTNER}/v1/ping`, call: () => axios.get(`${PARTNER}/v1/ping`) },
  'got': { stoppedAs: 'unhandled', target: `GET ${PARTNER}/v1/ping`, call: () => got(`${PARTNER}/v1/ping`, { retry: { limit: 0 } }) },
  'node:https.get': { stoppedAs: 'unhandled', target: `GET ${PARTNER}/v1/ping`, call: () => nodeGet(https, `${PARTNER}/v1/ping`) },
  'node:http.get': { stoppedAs: 'unhandled', target: 'GET http://api.partner.example/v1/ping', call: () => nodeGet(http, 'http://api.partner.example/v1/ping') },
  'stripe': { stoppedAs: 'unhandled', target: 'GET https://api.stripe.com/v1/balance', call: () => stripe.balance.retrieve() },
  'openai': { stoppedAs: 'unhandled', target: 'GET https://api.openai.com/v1/models', call: () => openai.models.list() },
  '@octokit/rest': { stoppedAs: 'unhandled', target: 'GET https://api.github.com/repos/shop/app', call: () => octokit.rest.repos.get({ owner: 'shop', repo: 'app' }) },
  '@aws-sdk/client-s3': {
    stoppedAs: 'unhandled',
    target: 'GET https://shop-uploads.s3.eu-west-1.amazonaws.com/secret.txt',
    call: () => s3.send(new GetObjectCommand({ Bucket: 'shop-uploads', Key: 'secret.txt' })),
  },
  'an undici Client the app built': { stoppedAs: 'blocked', target: 'api.partner.example:443', call: () => undiciClient.request({ path: '/v1/ping', method: 'GET' }) },
  'an undici Pool the app built': { stoppedAs: 'blocked', target: 'api.partner.example:443', call: () => undiciPool.request({ path: '/v1/ping', method: 'GET' }) },
  'raw tls.connect': {
    stoppedAs: 'blocked',
    target: 'smtp.partner.example:465',
    call: () => rawSocket(() => tls.connect({ host: 'smtp.partner.example', port: 465, servername: 'smtp.partner.example' }), 'secureConnect'),
  },
  'raw net.connect': { stoppedAs: 'blocked', target: 'db.partner.example:5432', call: () => rawSocket(() => net.connect(5432, 'db.partner.example'), 'connect') },
};

const app = useClientApp({
  scenarios: { default: { name: 'Nothing is mocked for these hosts', mocks: [{ url: 'https://api.partner.example/v1/health', response: { body: 'ok' } }] } },
  routes(express) {
    express.get('/escape/:client', async (req, res) => {
      const entry = CLIENTS[req.params.client];
      if (entry === undefined) return void res.status(404).json({ error: `no client ${req.params.client}` });
      // Reaching the next line means the call got an answer from somewhere: that is the failure.
      res.json({ escaped: String(await entry.call()) });
    });
  },
});

test('the tripwire is live: it counts a lookup of a non-loopback name made while the harness runs (control)', async () => {
  await expect(dns.promises.lookup('tripwire-control.example')).rejects.toThrow(/tripwire: lookup of tripwire-control\.example refused/);
  expect(app().tripwire.attempts.splice(0)).toEqual(['lookup tripwire-control.example']);
});

test.each(Object.entries(CLIENTS))('%s: the unanswered call fails in the app with a clear harness error and never reaches the network', async (name, { stoppedAs, target }) => {
  const testId = randomUUID();
  const reply = await app().call(testId, `/escape/${encodeURIComponent(name)}`);
  expect(reply.status).toBe(502);
  const messages = (reply.body as { errors: string[] }).errors.join('\n');
  if (stoppedAs === 'unhandled') {
    expect(messages).toContain(`[scenario-harness] No mock answers ${target} for test "${testId}"`);
  } else {
    expect(messages).toContain(`[scenario-harness] Blocked a connection to ${target}`);
    expect(messages).toContain('allowHosts');
  }
  // The shared afterEach asserts it too; here it is the point of the test.
  expect(app().tripwire.attempts).toEqual([]);
});

test('calls made outside any request (a background job) are stopped the same way, as test default-test', async () => {
  for (const name of ['global fetch', 'fetch captured before start()', 'undici.request', 'axios', 'stripe', 'an undici Pool the app built']) {
    const { stoppedAs, target, call } = CLIENTS[name]!;
    const messages = errorMessages(await call().then(() => undefined, (error: unknown) => error)).join('\n');
    expect(messages).toContain(stoppedAs === 'unhandled' ? `[scenario-harness] No mock answers ${target} for test "default-test"` : `[scenario-harness] Blocked a connection to ${target}`);
  }
  expect(app().tripwire.attempts).toEqual([]);
});

// Runs in a worker thread: each call of `workerData.calls` (a URL, made with fetch or node:https),
// then what became of it, the tripwire's count and the NODE_OPTIONS this thread sees, to the parent.
import https from 'node:https';
import { parentPort, workerData } from 'node:worker_threads';

/** An error's message and those of its causes: fetch puts the reason in `cause`. */
const chain = (error) => (error === undefined || error === null ? [] : [String(error.message ?? error), ...chain(error.cause)]);
const messages = (error) => chain(error).join(' <- ');

const CLIENTS = {
  fetch: async (url) => `answered ${(await fetch(url)).status}`,
  'node:https': (url) => new Promise((resolve, reject) => https.get(url, (response) => (response.resume(), resolve(`answered ${response.statusCode}`))).on('error', reject)),
};

const outcomes = [];
for (const { client, url } of workerData.calls) outcomes.push(await CLIENTS[client](url).catch(messages));
parentPort.postMessage({ outcomes, attempts: globalThis[Symbol.for('scenario-harness.test.tripwire')]?.attempts ?? null, nodeOptions: process.env.NODE_OPTIONS });

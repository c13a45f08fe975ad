/**
 * An Express app with the harness on whose routes read a mocked stream with one client each
 * (fetch, undici.request, node:https) and report when each piece of it arrived, in milliseconds
 * after the app's call began. A test switches its scenario over HTTP and asks the app.
 */
import { randomUUID } from 'node:crypto';
import https from 'node:https';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { request } from 'undici';
import { createHarness, type HarnessOptions, type ScenarioMap } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';

/** One read: the text and when it came (ms after the call began). */
export interface Piece {
  text: string;
  ms: number;
}
export interface Read {
  pieces: Piece[];
  /** ms after the call began: the body ended (or failed). */
  endMs: number;
  error?: string;
}

export const CLIENTS = ['fetch', 'undici', 'https'] as const;
export type ClientName = (typeof CLIENTS)[number];

const readers: Record<ClientName, (url: string, piece: (text: string) => void) => Promise<void>> = {
  async fetch(url, piece) {
    const response = await fetch(url, { signal: AbortSignal.timeout(20_000) });
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) piece(decoder.decode(read.value, { stream: true }));
  },
  async undici(url, piece) {
    const { body } = await request(url, { signal: AbortSignal.timeout(20_000) });
    for await (const chunk of body) piece(String(chunk));
  },
  https(url, piece) {
    return new Promise((resolve, reject) => {
      const req = https.get(url, { timeout: 20_000 }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (text: string) => piece(text));
        res.on('end', resolve);
        res.on('error', reject);
        res.on('aborted', () => reject(new Error('aborted')));
      });
      req.on('error', reject);
    });
  },
};

export async function startTimingApp(scenarios: ScenarioMap, options: Partial<HarnessOptions> = {}) {
  const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', announce: false, ...options });
  await harness.start();
  const app = express();
  app.use(harnessMiddleware(harness));
  app.get('/read/:client', async (req, res) => {
    const started = performance.now();
    const pieces: Piece[] = [];
    const read: Read = { pieces, endMs: 0 };
    try {
      await readers[req.params.client as ClientName](String(req.query['url']), (text) => pieces.push({ text, ms: performance.now() - started }));
    } catch (error) {
      read.error = String((error as Error).message ?? error);
    }
    read.endMs = performance.now() - started;
    res.json(read);
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** One fresh test: switch to `scenario`, have the app read `url` with `client`. */
  async function read(client: ClientName, scenario: string, url: string): Promise<Read> {
    const harnessClient = createHarnessClient({ baseURL: origin, testId: randomUUID(), logger: { warn: () => {} } });
    await harnessClient.switchScenario(scenario);
    const response = await fetch(`${origin}/read/${client}?url=${encodeURIComponent(url)}`, { headers: harnessClient.headers });
    return (await response.json()) as Read;
  }

  async function stop() {
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  }
  return { read, stop, harness };
}

/**
 * When the text up to and including chunk i had arrived, for each chunk of `chunks`: clients
 * may join chunks that arrive together, so this finds each chunk's end in the text received.
 */
export function arrivals(read: Read, chunks: readonly string[]): number[] {
  const ends: number[] = [];
  let expected = 0;
  for (const chunk of chunks) ends.push((expected += chunk.length));
  const out: number[] = [];
  let received = 0;
  let next = 0;
  for (const piece of read.pieces) {
    received += piece.text.length;
    while (next < ends.length && ends[next]! <= received) {
      out.push(piece.ms);
      next++;
    }
  }
  return out;
}

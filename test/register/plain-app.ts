/**
 * The conformance app's routes (test/conformance/fixture.ts) on one framework, with no line of
 * scenario-harness in it: what an app looks like that is tested through
 * `node --import scenario-harness/register`. FRAMEWORK picks express, fastify, koa or node;
 * UPSTREAM_ORIGIN is the real upstream. Prints `listening <port>` once it serves.
 */
import { bodyParser } from '@koa/bodyparser';
import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const upstream = process.env.UPSTREAM_ORIGIN!;
const greeting = async () => ((await (await fetch(`${upstream}/upstream/greeting`)).json()) as { greeting: string }).greeting;
const gate = async (name: string) => void (await fetch(`${upstream}/upstream/gate/${name}`));
const COOKIES = ['a=1; Path=/', 'b=2; Path=/'];

function expressApp(): Server {
  const app = express();
  app.use(express.json());
  app.get('/greeting', async (_req, res) => void res.json({ greeting: await greeting() }));
  app.get('/gated-greeting/:gate', async (req, res) => {
    await gate(req.params.gate);
    res.json({ greeting: await greeting() });
  });
  app.post('/body-then-greeting', async (req, res) => void res.json({ received: req.body, greeting: await greeting() }));
  app.get('/cookies', (_req, res) => void res.append('set-cookie', COOKIES).json({}));
  app.post('/app-echo', (req, res) => void res.json({ method: req.method, query: req.query.x, body: req.body }));
  return app.listen(0, '127.0.0.1');
}

async function fastifyApp(): Promise<Server> {
  const app = Fastify();
  app.get('/greeting', async () => ({ greeting: await greeting() }));
  app.get<{ Params: { gate: string } }>('/gated-greeting/:gate', async (request) => {
    await gate(request.params.gate);
    return { greeting: await greeting() };
  });
  app.post('/body-then-greeting', async (request) => ({ received: request.body, greeting: await greeting() }));
  app.get('/cookies', async (_request, reply) => reply.header('set-cookie', COOKIES).send({}));
  app.post<{ Querystring: { x?: string } }>('/app-echo', async (request) => ({ method: request.method, query: request.query.x, body: request.body }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return app.server;
}

function koaApp(): Server {
  const app = new Koa();
  app.use(bodyParser());
  app.use(async (ctx) => {
    const gated = /^\/gated-greeting\/(.+)$/.exec(ctx.path)?.[1];
    if (gated !== undefined) await gate(gated);
    if (ctx.path === '/greeting' || gated !== undefined) ctx.body = { greeting: await greeting() };
    else if (ctx.path === '/body-then-greeting') ctx.body = { received: ctx.request.body, greeting: await greeting() };
    else if (ctx.path === '/cookies') {
      ctx.set('set-cookie', COOKIES);
      ctx.body = {};
    }
    else if (ctx.path === '/app-echo') ctx.body = { method: ctx.method, query: ctx.query.x, body: ctx.request.body };
  });
  return app.listen(0, '127.0.0.1');
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

function nodeApp(): Server {
  return createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://app');
    const json = (status: number, body: unknown, headers: Record<string, string | string[]> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    const gated = /^\/gated-greeting\/(.+)$/.exec(url.pathname)?.[1];
    if (gated !== undefined) await gate(gated);
    if (url.pathname === '/greeting' || gated !== undefined) return json(200, { greeting: await greeting() });
    if (url.pathname === '/body-then-greeting') return json(200, { received: await readJson(req), greeting: await greeting() });
    if (url.pathname === '/cookies') return json(200, {}, { 'set-cookie': COOKIES });
    if (url.pathname === '/app-echo') return json(200, { method: req.method, query: url.searchParams.get('x') ?? undefined, body: await readJson(req) });
    json(404, { error: 'not found' });
  }).listen(0, '127.0.0.1');
}

const apps: Record<string, () => Server | Promise<Server>> = { express: expressApp, fastify: fastifyApp, koa: koaApp, node: nodeApp };
const start = apps[process.env.FRAMEWORK ?? ''];
if (start === undefined) throw new Error(`FRAMEWORK must be one of ${Object.keys(apps).join(', ')}, instead got ${process.env.FRAMEWORK}`);
const server = await start();
if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
console.log(`listening ${(server.address() as AddressInfo).port}`);

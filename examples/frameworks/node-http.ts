import { createServer } from 'node:http';
import { createHarness } from 'scenario-harness';
import { withHarness } from 'scenario-harness/node';
import { scenarios } from './scenarios.js';

const harness = createHarness({
  enabled: process.env.HARNESS_ENABLED === 'true',
  scenarios,
  unhandled: 'error',
});
await harness.start();

const server = createServer(
  withHarness(harness, async (req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname === '/') return void res.end('ok');
    const login = /^\/profile\/([^/]+)$/.exec(pathname)?.[1];
    if (login === undefined) return void res.writeHead(404).end();
    const response = await fetch(`https://api.github.com/users/${login}`);
    res.writeHead(response.status, { 'content-type': 'application/json' }).end(await response.text());
  }),
);

const port = Number(process.env.PORT ?? 3000);
server.listen(port, '127.0.0.1', () => console.log(`Listening on http://127.0.0.1:${port}`));

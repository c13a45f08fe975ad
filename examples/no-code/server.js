// server.js: no line of scenario-harness in it.
import { createServer } from 'node:http';

createServer(async (req, res) => {
  const login = req.url.split('/')[2];
  const github = await fetch(`https://api.github.com/users/${login}`);
  res.writeHead(github.status, { 'content-type': 'application/json' }).end(await github.text());
}).listen(Number(process.env.PORT ?? 3000), '127.0.0.1');

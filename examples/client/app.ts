import express from 'express';
import type { Harness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';

/** The app under test: one route that calls GitHub. Nothing in it knows about tests. */
export function createApp(harness: Harness) {
  const app = express();
  app.use(harnessMiddleware(harness));
  app.get('/profile/:login', async (req, res) => {
    const github = await fetch(`https://api.github.com/users/${req.params.login}`);
    if (!github.ok) return void res.status(502).json({ error: 'GitHub is unavailable, try again later' });
    const user = (await github.json()) as { login: string; followers: number };
    res.json({ login: user.login, popular: user.followers >= 10 });
  });
  return app;
}

import express from 'express';
import { createHarness } from 'scenario-harness';
import { harnessMiddleware } from 'scenario-harness/express';
import { scenarios } from './scenarios.js';

const harness = createHarness({
  enabled: process.env.HARNESS_ENABLED === 'true', // off unless the tests start the app with it
  scenarios,
  unhandled: 'error', // a call no mock answers fails instead of reaching the real API
});
await harness.start(); // intercepts outgoing calls from now on (does nothing when disabled)

const app = express();
app.use(harnessMiddleware(harness));

app.get('/', (_req, res) => {
  res.send('ok'); // a page to poll: Playwright's webServer.url waits for a 200 here
});

app.get('/profile/:login', async (req, res) => {
  // Unchanged app code: this call is answered from the test's scenario.
  const response = await fetch(`https://api.github.com/users/${req.params.login}`);
  res.status(response.status).json(await response.json());
});

const port = Number(process.env.PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`Listening on http://127.0.0.1:${port}`));

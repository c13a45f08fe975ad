/**
 * The app's GitHub routes through @octokit/rest, built at import time. Octokit looks up
 * `globalThis.fetch` on every request.
 */
import { Octokit } from '@octokit/rest';
import type { Express } from 'express';
import type { Gates } from './gates.js';

// The request-log plugin writes every failed request to console.error; the tests read errors from the app's replies.
const quiet = () => {};
const octokit = new Octokit({ auth: 'ghp_not_a_real_token', userAgent: 'shop-app/1.0', log: { debug: quiet, info: quiet, warn: console.warn, error: quiet } });

export function octokitRoutes(app: Express, gates: Gates): void {
  app.get('/repos/:owner/:repo/stars-twice/:gate', async (req, res) => {
    const { owner, repo, gate } = req.params;
    const first = await octokit.rest.repos.get({ owner, repo });
    await gates.pass(gate);
    const second = await octokit.rest.repos.get({ owner, repo });
    res.json({ first: [first.data.full_name, first.data.stargazers_count], second: [second.data.full_name, second.data.stargazers_count] });
  });
  app.get('/deploys/:run', async (req, res) => {
    const run = await octokit.rest.actions.getWorkflowRun({ owner: 'shop', repo: 'app', run_id: Number(req.params.run) });
    res.json({ status: run.data.status, conclusion: run.data.conclusion });
  });
  app.get('/repos/:owner/:repo/open-issues', async (req, res) => {
    const issues = await octokit.paginate(octokit.rest.issues.listForRepo, { owner: req.params.owner, repo: req.params.repo, per_page: 2 });
    res.json(issues.map((issue) => issue.title));
  });
  app.post('/bug-reports', async (req, res) => {
    const { title, labels } = req.body as { title: string; labels: string[] };
    try {
      const issue = await octokit.rest.issues.create({ owner: 'shop', repo: 'app', title, labels });
      res.status(201).json({ number: issue.data.number, title: issue.data.title, url: issue.data.html_url, labels: issue.data.labels });
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== 422) throw error;
      res.status(422).json({ rejected: true });
    }
  });
  app.get('/me', async (_req, res) => void res.json((await octokit.rest.users.getAuthenticated()).data));
}

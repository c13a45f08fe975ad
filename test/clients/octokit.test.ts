/**
 * @octokit/rest, built at import time, driven through an Express app: repositories per test
 * (path-parameter templates), a workflow run polled through a sequence, pagination through Link
 * headers, the JSON issue body matched with templates, setState, and an unanswered call.
 */
import { randomUUID } from 'node:crypto';
import { defineScenarios } from 'scenario-harness';
import { expect, test } from 'vitest';
import type { Gate } from './gates.js';
import { octokitRoutes } from './octokit-app.js';
import { useClientApp } from './use-client-app.js';

const API = 'https://api.github.com';
const repository = (stars: number) => ({ id: 1, name: '{{params.repo}}', full_name: '{{params.owner}}/{{params.repo}}', stargazers_count: stars });
const run = (status: string, conclusion: string | null) => ({ id: '{{params.run}}', status, conclusion });
const issue = (title: string) => ({ id: 1, number: 1, title, state: 'open' });

const scenarios = defineScenarios({
  default: {
    name: 'GitHub works',
    mocks: [
      { method: 'GET', url: `${API}/repos/:owner/:repo`, response: { body: repository(1) } },
      {
        method: 'GET',
        url: `${API}/repos/:owner/:repo/actions/runs/:run`,
        sequence: { responses: [{ body: run('queued', null) }, { body: run('in_progress', null) }, { body: run('completed', 'success') }] },
      },
      {
        method: 'GET',
        url: `${API}/repos/:owner/:repo/issues`,
        response: {
          headers: { link: '<https://api.github.com/repos/{{params.owner}}/{{params.repo}}/issues?per_page=2&page=2>; rel="next", <https://api.github.com/repos/{{params.owner}}/{{params.repo}}/issues?per_page=2&page=2>; rel="last"' },
          body: [issue('first'), issue('second')],
        },
      },
      { method: 'GET', url: `${API}/repos/:owner/:repo/issues`, match: { query: { page: '2', per_page: '2' } }, response: { body: [issue('third on {{params.repo}}')] } },
      {
        method: 'POST',
        url: `${API}/repos/:owner/:repo/issues`,
        match: { body: { title: { startsWith: 'Crash:' }, labels: ['bug'] } },
        response: {
          status: 201,
          body: { number: 42, title: '{{body.title}}', html_url: 'https://github.com/{{params.owner}}/{{params.repo}}/issues/42', labels: '{{body.labels}}' },
        },
        afterResponse: { setState: { 'issues[]': '{{body.title}}', 'issues.repo': '{{params.owner}}/{{params.repo}}' } },
      },
      {
        method: 'POST',
        url: `${API}/repos/:owner/:repo/issues`,
        response: { status: 422, body: { message: 'Validation Failed', documentation_url: 'https://docs.github.com/rest' } },
      },
    ],
  },
  alice: { name: 'Popular', mocks: [{ method: 'GET', url: `${API}/repos/:owner/:repo`, response: { body: repository(5000) } }] },
  bob: { name: 'Unknown', mocks: [{ method: 'GET', url: `${API}/repos/:owner/:repo`, response: { body: repository(0) } }] },
});

const app = useClientApp({ scenarios, routes: octokitRoutes });

test('three test IDs in flight at once each get their own scenario, with path-parameter templates', async () => {
  const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
  await app().switchScenario(a, 'alice');
  await app().switchScenario(b, 'bob');
  const [gateA, gateB, gateC] = [a, b, c].map((id) => app().gates.gate(id)) as [Gate, Gate, Gate];
  try {
    const requestA = app().call(a, `/repos/shop/app/stars-twice/${a}`);
    await gateA.arrived;
    const requestB = app().call(b, `/repos/octo/cat/stars-twice/${b}`);
    await gateB.arrived;
    const requestC = app().call(c, `/repos/shop/web/stars-twice/${c}`);
    await gateC.arrived;
    gateB.release();
    expect(await requestB).toEqual({ status: 200, body: { first: ['octo/cat', 0], second: ['octo/cat', 0] } });
    gateA.release();
    expect(await requestA).toEqual({ status: 200, body: { first: ['shop/app', 5000], second: ['shop/app', 5000] } });
    gateC.release();
    expect(await requestC).toEqual({ status: 200, body: { first: ['shop/web', 1], second: ['shop/web', 1] } });
  } finally {
    [gateA, gateB, gateC].forEach((gate) => gate.release());
  }
});

test('a workflow run polled through a sequence: queued, in progress, completed — per test ID', async () => {
  const [a, b] = [randomUUID(), randomUUID()];
  const poll = async (testId: string) => ((await app().call(testId, '/deploys/99')).body as { status: string }).status;
  expect([await poll(a), await poll(b), await poll(a), await poll(a), await poll(a), await poll(b)]).toEqual([
    'queued',
    'queued',
    'in_progress',
    'completed',
    'completed',
    'in_progress',
  ]);
});

test('octokit.paginate follows the mocked Link header to page 2 (query matching, header templates)', async () => {
  expect(await app().call(randomUUID(), '/repos/shop/app/open-issues')).toEqual({ status: 200, body: ['first', 'second', 'third on app'] });
});

test('the JSON issue body is matched (string matcher, label array) and feeds templates; another body gets the 422', async () => {
  const testId = randomUUID();
  expect(await app().call(testId, '/bug-reports', { body: { title: 'Crash: checkout on Safari', labels: ['bug'] } })).toEqual({
    status: 201,
    body: { number: 42, title: 'Crash: checkout on Safari', url: 'https://github.com/shop/app/issues/42', labels: ['bug'] },
  });
  expect(await app().call(testId, '/bug-reports', { body: { title: 'Crash: checkout on Safari', labels: ['bug', 'ui'] } })).toEqual({ status: 422, body: { rejected: true } });
  expect(await app().call(testId, '/bug-reports', { body: { title: 'Idea: dark mode', labels: ['bug'] } })).toEqual({ status: 422, body: { rejected: true } });
});

test('afterResponse.setState is read back through GET /__harness__/state', async () => {
  const testId = randomUUID();
  await app().call(testId, '/bug-reports', { body: { title: 'Crash: login', labels: ['bug'] } });
  await app().call(testId, '/bug-reports', { body: { title: 'Crash: logout', labels: ['bug'] } });
  expect(await app().state(testId)).toEqual({ status: 200, body: { testId, state: { issues: ['Crash: login', 'Crash: logout'], 'issues.repo': 'shop/app' } } });
});

test('an unanswered call (GET /user) fails in the app with an error that names scenario-harness and the test ID', async () => {
  const testId = randomUUID();
  const reply = await app().call(testId, '/me');
  expect(reply.status).toBe(502);
  const messages = (reply.body as { errors: string[] }).errors;
  // Octokit's RequestError takes the fetch error's cause as its own message.
  expect(messages[0]).toMatch(/^\[scenario-harness\] No mock answers GET https:\/\/api\.github\.com\/user /);
  expect(messages[0]).toContain(`for test "${testId}"`);
});

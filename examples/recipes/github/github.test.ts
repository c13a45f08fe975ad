import { Octokit } from '@octokit/rest';
import { randomUUID } from 'node:crypto';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { scenarios } from './scenarios.js';

const harness = createHarness({ enabled: true, scenarios, unhandled: 'error' });
// A quiet logger: Octokit logs every failed request, and one test fails requests on purpose.
const quiet = () => {};
const octokit = new Octokit({ auth: 'ghp_not_a_real_token', log: { debug: quiet, info: quiet, warn: quiet, error: quiet } });

beforeAll(() => harness.start());
afterAll(() => harness.stop());

test('REST: a repository, and issues numbered per test', async () => {
  const testId = randomUUID();
  const repo = await harness.run(testId, () => octokit.rest.repos.get({ owner: 'octo', repo: 'shop' }));
  expect([repo.data.full_name, repo.data.stargazers_count]).toEqual(['octo/shop', 42]);

  const report = (title: string) => harness.run(testId, () => octokit.rest.issues.create({ owner: 'octo', repo: 'shop', title, labels: ['bug'] }));
  expect((await report('Crash: on checkout')).data.number).toBe(1);
  expect((await report('Crash: on login')).data.number).toBe(2);
  expect(await harness.getState(testId)).toEqual({ issues: ['Crash: on checkout', 'Crash: on login'] });
});

test('GraphQL: the operation is matched by name and variables', async () => {
  const query = 'query RepoStars($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { name stargazerCount } }';
  const result = await harness.run(randomUUID(), () => octokit.graphql<{ repository: { name: string; stargazerCount: number } }>(query, { owner: 'octo', name: 'shop' }));
  expect(result.repository).toEqual({ name: 'shop', stargazerCount: 1000 });
});

test('a used-up rate limit is a 403 the SDK throws', async () => {
  const testId = randomUUID();
  await harness.switchScenario(testId, 'rateLimited');
  await expect(harness.run(testId, () => octokit.rest.repos.get({ owner: 'octo', repo: 'shop' }))).rejects.toMatchObject({ status: 403 });
});

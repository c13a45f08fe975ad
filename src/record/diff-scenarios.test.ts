import { expect, test } from 'vitest';
import type { ScenarioMap } from '../core/types.js';
import { diffScenarios, formatScenarioDiff } from './diff-scenarios.js';

const before: ScenarioMap = {
  default: {
    name: 'Recorded',
    description: 'Recorded at 2024-06-20T10:00:00.000Z',
    mocks: [
      { id: 'GET api.test/me', method: 'GET', url: 'https://api.test/me', response: { status: 200, body: { name: 'Ada', plan: 'free' } } },
      { id: 'POST api.test/pay', method: 'POST', url: 'https://api.test/pay', match: { body: { amount: 1 } }, response: { status: 200 } },
      { method: 'GET', url: 'https://api.test/health', response: { status: 200 } },
    ],
  },
  old: { name: 'Old', mocks: [] },
};

test('lists scenarios and mocks added, removed and changed, with the changed fields; descriptions are not compared', () => {
  const after: ScenarioMap = {
    default: {
      name: 'Recorded',
      description: 'Recorded at 2024-06-21T09:00:00.000Z',
      mocks: [
        { id: 'GET api.test/me', method: 'GET', url: 'https://api.test/me', response: { status: 200, body: { name: 'Ada', plan: 'pro' } } },
        { id: 'POST api.test/pay', method: 'POST', url: 'https://api.test/pay', match: { body: { amount: 2 } }, sequence: { responses: [{ status: 200 }, { status: 402 }] } },
        { method: 'GET', url: 'https://api.test/health', response: { status: 200 } },
        { id: 'GET api.test/refunds', method: 'GET', url: 'https://api.test/refunds', response: { status: 200, body: [] } },
      ],
    },
    fresh: { name: 'Fresh', mocks: [] },
  };
  const diff = diffScenarios(before, after);
  expect(diff).toEqual({
    addedScenarios: ['fresh'],
    removedScenarios: ['old'],
    added: [{ scenario: 'default', mock: 'GET api.test/refunds' }],
    removed: [],
    changed: [
      { scenario: 'default', mock: 'GET api.test/me', fields: ['response.body.plan'] },
      { scenario: 'default', mock: 'POST api.test/pay', fields: ['match.body.amount', 'response', 'sequence'] },
    ],
  });
  expect(formatScenarioDiff(diff)).toBe(
    [
      '+ scenario "fresh"',
      '- scenario "old"',
      'scenario "default":',
      '  + GET api.test/refunds',
      '  ~ GET api.test/me: response.body.plan',
      '  ~ POST api.test/pay: match.body.amount, response, sequence',
    ].join('\n'),
  );
});

test('a mock without an id is known by its method, URL and match; a removed one is listed', () => {
  const after: ScenarioMap = { ...before, default: { ...before.default!, mocks: before.default!.mocks.slice(0, 2) } };
  expect(formatScenarioDiff(diffScenarios(before, after))).toBe('scenario "default":\n  - GET https://api.test/health');
});

test('nothing changed: says so', () => {
  expect(formatScenarioDiff(diffScenarios(before, structuredClone(before)))).toBe('No changes.');
});

test("a recorded stream's chunk times are not compared (they differ on every recording); its texts and count are", () => {
  const recorded = (chunks: { text: string; atMs: number }[]): ScenarioMap => ({
    default: { name: 'Recorded', mocks: [{ id: 'POST api.test/chat', method: 'POST', url: 'https://api.test/chat', response: { stream: { timing: 'recorded', chunks } } }] },
  });
  const first = recorded([{ text: 'data: a\n\n', atMs: 0.4 }, { text: 'data: b\n\n', atMs: 30.2 }]);
  expect(diffScenarios(first, recorded([{ text: 'data: a\n\n', atMs: 0.9 }, { text: 'data: b\n\n', atMs: 28.7 }])).changed).toEqual([]);
  expect(diffScenarios(first, recorded([{ text: 'data: a\n\n', atMs: 0.9 }, { text: 'data: c\n\n', atMs: 28.7 }])).changed).toEqual([{ scenario: 'default', mock: 'POST api.test/chat', fields: ['response.stream.chunks[1].text'] }]);
  expect(diffScenarios(first, recorded([{ text: 'data: a\n\n', atMs: 0.9 }])).changed).toEqual([{ scenario: 'default', mock: 'POST api.test/chat', fields: ['response.stream.chunks'] }]);
});

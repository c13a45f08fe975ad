import { randomUUID } from 'node:crypto';
import { createHarness, isHarnessError, type ScenarioMap } from 'scenario-harness';
import { expect, test } from 'vitest';

const API = 'https://api.x.test';

function creationError(scenarios: ScenarioMap, enabled = true): string | undefined {
  try {
    createHarness({ enabled, scenarios });
    return undefined;
  } catch (error) {
    if (!isHarnessError(error)) throw error;
    expect(error.code).toBe('INVALID_SCENARIOS');
    return error.message;
  }
}

const unsafe: ScenarioMap = {
  default: { name: 'D', mocks: [{ url: `${API}/ok`, match: { query: { q: { regex: { source: '^[a-z]+$' } } } }, response: {} }] },
  search: {
    name: 'Search',
    mocks: [
      { url: `${API}/a`, response: {} },
      { url: `${API}/search`, match: { query: { q: { regex: { source: '^(a+)+$', flags: 'i' } } } }, response: {} },
    ],
    variants: { slow: { mocks: [{ url: /^https:\/\/api\.x\.test\/(\d+)*$/, match: { headers: { 'x-tag': /^([a-z]+)+$/ } }, response: {} }] } },
  },
};

test('a serialised or native regex that can backtrack catastrophically fails createHarness, naming scenario, mock and field', () => {
  const message = creationError(unsafe);
  expect(message).toContain('scenario "search", mocks[1].match.query.q.regex: is the regular expression /^(a+)+$/i, which can backtrack catastrophically');
  expect(message).toContain('scenario "search", variants.slow.mocks[0].url: is the regular expression');
  expect(message).toContain('scenario "search", variants.slow.mocks[0].match.headers.x-tag: is the regular expression /^([a-z]+)+$/');
  expect(message).not.toContain('scenario "default"');
});

test('catastrophic patterns inside a body matcher are found too', () => {
  const message = creationError({ default: { name: 'D', mocks: [{ url: `${API}/x`, match: { body: { user: { emails: [{ regex: { source: '^(\\w+\\s?)*$' } }] } } }, response: {} }] } });
  expect(message).toContain('scenario "default", mocks[0].match.body.user.emails[0].regex: is the regular expression');
});

test('an unanchored serialised pattern that is quadratic is refused with the advice to anchor it', () => {
  const message = creationError({ default: { name: 'D', mocks: [{ url: `${API}/x`, match: { query: { id: { regex: { source: '\\d+$' } } } }, response: {} }] } });
  expect(message).toContain('scenario "default", mocks[0].match.query.id.regex: is the regular expression /\\d+$/, which can backtrack catastrophically');
  expect(message).toContain('Anchor it with ^');
  expect(creationError({ default: { name: 'D', mocks: [{ url: `${API}/x`, match: { query: { id: { regex: { source: '^\\d+$' } } } }, response: {} }] } })).toBeUndefined();
});

test('a native RegExp is judged as if anchored: unanchored is fine, nested quantifiers are not', () => {
  expect(creationError({ default: { name: 'D', mocks: [{ url: /\/users\/(?<id>\d+)$/, match: { headers: { a: /\d+$/ } }, response: {} }] } })).toBeUndefined();
  expect(creationError({ default: { name: 'D', mocks: [{ url: /\/users\/(\d+)+$/, response: {} }] } })).toContain('mocks[0].url: is the regular expression');
});

test('a URL RegExp in its data form is judged like the same RegExp in code', () => {
  expect(creationError({ default: { name: 'D', mocks: [{ url: { regex: { source: '\\/users\\/(?<id>\\d+)$' } }, response: {} }] } })).toBeUndefined();
  expect(creationError({ default: { name: 'D', mocks: [{ url: { regex: { source: '\\/users\\/(\\d+)+$' } }, response: {} }] } })).toContain(
    'scenario "default", mocks[0].url.regex: is the regular expression /\\/users\\/(\\d+)+$/, which can backtrack catastrophically',
  );
});

test('a disabled harness never matches a call, so it skips the check', () => {
  expect(creationError(unsafe, false)).toBeUndefined();
});

test('RegExp matchers with g or y flags answer the same on every call, and the user\'s RegExp is left as it was', async () => {
  const header = /^tok/gy;
  const url = /^https:\/\/api\.x\.test\/sticky\/\d+(\?|$)/g;
  const harness = createHarness({
    enabled: true,
    unhandled: 'error',
    logger: { warn: () => {}, error: () => {} },
    scenarios: {
      default: {
        name: 'D',
        mocks: [
          { url, match: { headers: { authorization: header }, query: { q: { regex: { source: 'x', flags: 'gy' } } }, body: { name: /a/g } }, response: { body: 'matched' } },
        ],
      },
    },
  });
  await harness.start();
  try {
    const call = () => harness.run(randomUUID(), async () => (await fetch(`${API}/sticky/1?q=x`, { method: 'POST', headers: { authorization: 'token' }, body: '{"name":"ada"}' })).text());
    expect([await call(), await call(), await call(), await call()]).toEqual(['matched', 'matched', 'matched', 'matched']);
    expect([header.lastIndex, url.lastIndex, header.flags, url.flags]).toEqual([0, 0, 'gy', 'g']);
  } finally {
    await harness.stop();
  }
});

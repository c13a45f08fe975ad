import { createHarness, defineScenarios, HarnessError, isHarnessError, type ScenarioMap } from 'scenario-harness';
import { expect, test } from 'vitest';

const create = (scenarios: unknown) => () => createHarness({ enabled: true, scenarios: scenarios as ScenarioMap });
const ok = { name: 'OK', mocks: [{ url: 'https://a.test/x', response: { body: 1 } }] };

test.each([
  ['a URL that is not a pattern', { s: { name: 'S', mocks: [ok.mocks[0], { url: 'api.test/x', response: {} }] } }, /scenario "s", mocks\[1\]\.url: "api\.test\/x" is not a URL pattern/],
  ['a URL with a query', { s: { name: 'S', mocks: [{ url: 'https://a.test/x?y=1', response: {} }] } }, /scenario "s", mocks\[0\]\.url: .*match\.query/],
  ['a status out of range', { s: { name: 'S', mocks: [{ url: '/x', response: { status: 42 } }] } }, /scenario "s", mocks\[0\]\.response\.status: /],
  ['both response and sequence', { s: { name: 'S', mocks: [{ url: '/x', response: {}, sequence: { responses: [{}] } }] } }, /scenario "s", mocks\[0\]: needs exactly one of "response" and "sequence"/],
  ['neither response nor sequence', { s: { name: 'S', mocks: [{ url: '/x' }] } }, /mocks\[0\]: needs exactly one/],
  ['an empty sequence', { s: { name: 'S', mocks: [{ url: '/x', sequence: { responses: [] } }] } }, /mocks\[0\]\.sequence\.responses: a sequence needs at least one response/],
  ['an unknown method', { s: { name: 'S', mocks: [{ method: 'FETCH', url: '/x', response: {} }] } }, /mocks\[0\]\.method: /],
  ['a typo in a key', { s: { name: 'S', mocks: [{ url: '/x', respose: {} }] } }, /mocks\[0\]: .*respose/],
  ['a bad string matcher', { s: { name: 'S', mocks: [{ url: '/x', match: { query: { q: { like: 'x' } } }, response: {} }] } }, /mocks\[0\]\.match\.query\.q: expected a string, a RegExp, or one of/],
  ['an invalid serialised regex', { s: { name: 'S', mocks: [{ url: '/x', match: { headers: { a: { regex: { source: '(' } } } }, response: {} }] } }, /mocks\[0\]\.match\.headers\.a\.regex: is not a valid regular expression/],
  ['an unknown template source', { s: { name: 'S', mocks: [{ url: '/x', response: { body: { id: '{{param.id}}' } } }] } }, /mocks\[0\]\.response\.body\.id: has the template \{\{param\.id\}\}/],
  ['an invalid URL regex in its data form', { s: { name: 'S', mocks: [{ url: { regex: { source: '[' } }, response: {} }] } }, /scenario "s", mocks\[0\]\.url\.regex: is not a valid regular expression/],
  ['a URL object that is not a regex', { s: { name: 'S', mocks: [{ url: { pattern: '/x' }, response: {} }] } }, /scenario "s", mocks\[0\]\.url: expected a URL pattern string, a RegExp or \{ regex: \{ source, flags\? \} \}/],
  ['a bad variant mock', { s: { name: 'S', mocks: [], variants: { gold: { mocks: [{ url: 42, response: {} }] } } } }, /scenario "s", variants\.gold\.mocks\[0\]\.url: /],
  ['a body on a 204', { s: { name: 'S', mocks: [{ url: '/x', response: { status: 204, body: 'no' } }] } }, /mocks\[0\]\.response\.body: must be left out: status 204 has no body/],
  ['a bad header name', { s: { name: 'S', mocks: [{ url: '/x', response: { headers: { 'bad header': 'x' } } }] } }, /mocks\[0\]\.response\.headers\.bad header: is not a valid HTTP header/],
  ['a scenario without a name', { s: { mocks: [] } }, /scenario "s", name: expected a name/],
  ['scenarios that are not an object', 'nope', /scenarios: expected an object mapping scenario IDs to definitions/],
])('%s fails at createHarness naming the scenario, mock index and field', (_, scenarios, message) => {
  expect(create(scenarios)).toThrow(HarnessError);
  expect(create(scenarios)).toThrow(message);
});

test('a bad regex is listed with the other problems of its mock, not after they are fixed', () => {
  const scenarios = { s: { name: 'S', mocks: [{ url: '/x', respones: {}, match: { query: { q: { regex: { source: '(' } } }, headers: { h: { regex: { source: '[' } } } } }] } };
  expect(create(scenarios)).toThrow(
    [
      'Invalid scenario definitions:',
      '  - scenario "s", mocks[0]: unknown key "respones" (did you mean "response"?); allowed keys: "id", "method", "url", "match", "response", "sequence", "afterResponse"',
      '  - scenario "s", mocks[0]: needs exactly one of "response" and "sequence"',
      '  - scenario "s", mocks[0].match.query.q.regex: is not a valid regular expression (Invalid regular expression: /(/: Unterminated group)',
      '  - scenario "s", mocks[0].match.headers.h.regex: is not a valid regular expression (Invalid regular expression: /[/: Unterminated character class)',
    ].join('\n'),
  );
});

test('every problem is listed in one error, with its code', () => {
  try {
    create({ a: { name: 'A', mocks: [{ url: 'x', response: {} }] }, b: { name: 'B', mocks: [{ url: '/y', response: { status: 1 } }] } })();
    expect.unreachable();
  } catch (error) {
    expect(isHarnessError(error) && error.code).toBe('INVALID_SCENARIOS');
    expect((error as Error).message).toContain('scenario "a", mocks[0].url: "x" is not a URL pattern');
    expect((error as Error).message).toContain('scenario "b", mocks[0].response.status: ');
  }
});

test.each([
  ['respnse', { url: '/x', respnse: { body: 1 } }, 'mocks[0]: unknown key "respnse" (did you mean "response"?); allowed keys: "id", "method", "url", "match", "response", "sequence", "afterResponse"'],
  ['sequnce', { url: '/x', sequnce: { responses: [{}] } }, 'mocks[0]: unknown key "sequnce" (did you mean "sequence"?)'],
  ['afterRespons', { url: '/x', response: {}, afterRespons: { setState: { a: 1 } } }, 'mocks[0]: unknown key "afterRespons" (did you mean "afterResponse"?)'],
  ['setstate', { url: '/x', response: {}, afterResponse: { setstate: { a: 1 } } }, 'mocks[0].afterResponse: unknown key "setstate" (did you mean "setState"?); allowed keys: "setState"'],
  ['match.bdy', { url: '/x', match: { bdy: { a: 1 } }, response: {} }, 'mocks[0].match: unknown key "bdy" (did you mean "body"?); allowed keys: "body", "graphql", "query", "headers", "state"'],
  ['response.staus', { url: '/x', response: { staus: 201 } }, 'mocks[0].response: unknown key "staus" (did you mean "status"?)'],
  ['a key nothing is near', { url: '/x', response: {}, colour: 'red' }, 'mocks[0]: unknown key "colour"; allowed keys: "id", "method"'],
])('a misspelled definition key (%s) is named with the nearest allowed key', (_, mock, message) => {
  expect(create({ s: { name: 'S', mocks: [mock] } })).toThrow(`scenario "s", ${message}`);
});

test('a misspelled scenario key is named with the nearest allowed key', () => {
  expect(create({ s: { name: 'S', mocks: [], varaints: {} } })).toThrow('scenario "s": unknown key "varaints" (did you mean "variants"?); allowed keys: "name", "description", "mocks", "sockets", "variants"');
});

test('the error says which call found the problem: defineScenarios() or createHarness()', () => {
  const bad = { s: { name: 'S', mocks: [{ url: '/x', respnse: {} }] } };
  expect(() => defineScenarios(bad as never)).toThrow(/Fix these fields in the scenarios passed to defineScenarios\(\)/);
  expect(create(bad)).toThrow(/Fix these fields in the scenarios passed to createHarness\(\)/);
});

test('defineScenarios checks at once and returns the map unchanged', () => {
  const scenarios = { default: ok };
  expect(defineScenarios(scenarios)).toBe(scenarios);
  expect(() => defineScenarios({ s: { name: 'S', mocks: [{ url: 'nope', response: {} }] } })).toThrow(/scenario "s", mocks\[0\]\.url/);
});

test.each([
  [{ scenarios: {} }, /"enabled" to be true or false, instead got undefined/],
  [{ enabled: 'yes', scenarios: {} }, /"enabled" to be true or false, instead got "yes"/],
  [{ enabled: true, scenarios: {}, unhandled: 'loud' }, /"unhandled" to be 'bypass', 'warn', 'error' or a function, instead got "loud"/],
  [{ enabled: true, scenarios: {}, endpoints: { setScenario: 'scenario' } }, /"endpoints\.setScenario" to be a path starting with "\/"/],
  [{ enabled: true, scenarios: {}, endpoints: { switch: '/x' } }, /"endpoints\.switch" is not an endpoint/],
  [{ enabled: true, scenarios: {}, store: {} }, /"store" is missing the method read\(\)/],
])('bad options fail with what was received: %j', (options, message) => {
  expect(() => createHarness(options as never)).toThrow(message);
});

test('API calls name a bad test ID or an unknown scenario with the registered ones', async () => {
  const harness = createHarness({ enabled: true, scenarios: { default: ok, premium: ok } });
  await expect(harness.switchScenario('', 'premium')).rejects.toThrow(/non-empty test ID as the first argument of harness\.switchScenario/);
  await expect(harness.switchScenario('t', 'nope' as 'premium')).rejects.toThrow(/Scenario 'nope' not found\. Did you forget to register it\? Registered scenarios: "default", "premium"/);
});

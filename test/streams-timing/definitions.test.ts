/**
 * `timing`, `hold`, `failAfter` and `errorAfter` as definitions: refused at load with the
 * field named when wrong; carried into the built reply as data (`ReplyStream.schedule`, `id`,
 * `hold`) for the interception layers and the streams part.
 */
import { createHarness } from 'scenario-harness';
import { expect, test } from 'vitest';
import { buildReply } from '../../src/core/engine/build-response.js';
import { compileMock } from '../../src/core/engine/compile-mock.js';
import type { Mock } from '../../src/core/types.js';

const make = (response: object) => () => createHarness({ enabled: true, scenarios: { default: { name: 'D', mocks: [{ url: 'https://api.x.test/s', response }] } } });

test('a bad timing, hold or errorAfter is refused at load, naming the field', () => {
  expect(make({ stream: { chunks: ['a'], intervalMs: 5, timing: { intervalMs: 5 } } })).toThrow(/response\.stream\.intervalMs: cannot be combined with "timing\.intervalMs": they are the same setting, give one/);
  expect(make({ stream: { chunks: ['a'], intervalMs: 5, timing: { tokensPerSecond: 5 } } })).toThrow(/response\.stream\.intervalMs: cannot be combined with "timing\.tokensPerSecond"/);
  expect(make({ stream: { chunks: ['a'], timing: { intervalMs: 5, tokensPerSecond: 5 } } })).toThrow(/response\.stream\.timing\.tokensPerSecond: cannot be combined with "timing\.intervalMs"/);
  expect(make({ stream: { chunks: ['a'], timing: { jitter: 1.5 } } })).toThrow(/response\.stream\.timing\.jitter: expected a fraction from 0 to 1/);
  expect(make({ stream: { chunks: ['a'], timing: { tokensPerSecond: 0 } } })).toThrow(/response\.stream\.timing\.tokensPerSecond/);
  expect(make({ stream: { chunks: ['a'], timing: { firstMs: -1 } } })).toThrow(/response\.stream\.timing\.firstMs/);
  expect(make({ stream: { chunks: ['a'], timing: { pace: 3 } } })).toThrow(/response\.stream\.timing.*unknown key "pace"/);
  expect(make({ stream: { chunks: ['a'], hold: { after: 1 } } })).toThrow(/response\.stream\.hold/);
  expect(make({ llm: { api: 'openai.chat', text: 'x', failAfter: 1, errorAfter: { chunks: 1 } } })).toThrow(/response\.llm\.errorAfter: cannot be combined with "failAfter"/);
  expect(make({ llm: { api: 'openai.chat', text: 'x', errorAfter: { chunks: -1 } } })).toThrow(/response\.llm\.errorAfter\.chunks/);
  expect(make({ llm: { api: 'openai.chat', text: 'x', timing: { seed: 1.5 } } })).toThrow(/response\.llm\.timing\.seed/);
});

const CONTEXT = { params: {}, url: new URL('https://api.x.test/s'), headers: new Headers(), body: undefined, state: {}, variant: undefined };

test("a stream's reply carries its schedule, its mock's id (or name) and its hold, the same for every call", () => {
  const named = compileMock({ id: 'story', url: 'https://api.x.test/s', response: { stream: { chunks: ['a', 'b', 'c'], timing: { firstMs: 5, intervalMs: 10, jitter: 0.3, seed: 9 }, hold: { afterChunks: 2 } } } } as Mock, 0, 'default#0', { scenarioId: 'default' });
  const first = buildReply(named.responses[0]!, CONTEXT).stream!;
  expect(first.id).toBe('story');
  expect(first.hold).toEqual({ afterChunks: 2 });
  expect(first.schedule).toHaveLength(3);
  expect(buildReply(named.responses[0]!, CONTEXT).stream!.schedule).toEqual(first.schedule);
  const anonymous = compileMock({ method: 'GET', url: 'https://api.x.test/s', response: { stream: { chunks: ['a'] } } } as Mock, 0, 'default#3', { scenarioId: 'default' });
  const plain = buildReply(anonymous.responses[0]!, CONTEXT).stream!;
  expect(plain.id).toBe('GET https://api.x.test/s (default#3)');
  expect([plain.schedule, plain.hold, plain.intervalMs]).toEqual([undefined, undefined, 0]);
});

test("an llm stream's failAfter, errorAfter and hold count chunks of text, made chunk indexes in its reply", () => {
  const request = { ...CONTEXT, url: new URL('https://api.openai.com/v1/chat/completions'), body: { model: 'm', stream: true } };
  const llm = (extra: object) => buildReply(compileMock({ url: 'https://api.openai.com/v1/chat/completions', response: { llm: { api: 'openai.chat', text: 'one two three', ...extra } } } as Mock, 0, 'default#0', { scenarioId: 'default' }).responses[0]!, request).stream!;
  const decode = (chunk: Uint8Array) => new TextDecoder().decode(chunk);
  // role, one, two, three, finish, [DONE]: the first chunk of text is chunk 1.
  expect(llm({ hold: { afterChunks: 2 } }).hold).toEqual({ afterChunks: 3 });
  expect(llm({ failAfter: 1 }).failAfter).toBe(2);
  const errored = llm({ errorAfter: { chunks: 2, message: 'busy' }, timing: { tokensPerSecond: 10 } });
  expect(errored.chunks.map(decode).slice(1, 3).map((chunk) => JSON.parse(chunk.slice(6)).choices[0].delta.content)).toEqual(['one', ' two']);
  expect(JSON.parse(decode(errored.chunks[3]!).slice(6))).toEqual({ error: { message: 'busy', type: 'server_error', param: null, code: null } });
  expect(errored.chunks).toHaveLength(4);
  // role at 0; 'one' (1 token) 100 ms; ' two' (1) 200 ms; the error event, no text, at once.
  expect(errored.schedule).toEqual([0, 100, 200, 200]);
});

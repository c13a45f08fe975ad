import { expect, test } from 'vitest';
import { buildReply, precomputeResponseParts } from './build-response.js';
import { compileTemplate, type TemplateContext } from './template.js';

const context = (name: string): TemplateContext => ({
  params: { name },
  url: new URL('https://api.x.test/'),
  headers: new Headers(),
  body: undefined,
  state: Object.create(null),
  variant: undefined,
});

test('a header filled from request data is always a valid header value', () => {
  const response = { status: 200, headers: [['x-name', compileTemplate('hi {{params.name}}', 'h')]] as const, body: undefined, delay: 0, fault: undefined, fixed: undefined, fixedReply: undefined, binary: undefined, stream: undefined, llm: undefined, dynamic: undefined };
  const header = (name: string) => buildReply(response, context(name)).headers['x-name'];
  expect(header('Zoë')).toBe('hi Zoë');
  expect(header('a\r\nSet-Cookie: x=1')).toBe('hi a  Set-Cookie: x=1');
  expect(header('😀 Ā')).toBe('hi %F0%9F%98%80 %C4%80');
  expect(header('\uD800')).toBe('hi %EF%BF%BD');
});

test('a response without templates is built once and gives the same answer every call', async () => {
  const headers = [['X-Kind', compileTemplate('fixed', 'h')]] as const;
  const body = compileTemplate({ ok: true }, 'b');
  const fixed = precomputeResponseParts({ headers, body });
  expect(fixed).toEqual({ text: '{"ok":true}', headers: { 'x-kind': 'fixed', 'content-type': 'application/json' } });
  const response = { status: 201, headers, body, delay: 0, fault: undefined, fixed, fixedReply: undefined, binary: undefined, stream: undefined, llm: undefined, dynamic: undefined };
  for (const name of ['a', 'b']) {
    const answer = buildReply(response, context(name));
    expect([answer.status, answer.headers['x-kind'], JSON.parse(String(answer.body))]).toEqual([201, 'fixed', { ok: true }]);
  }
  expect(precomputeResponseParts({ headers, body: compileTemplate({ id: '{{params.name}}' }, 'b') })).toBeUndefined();
});

import { expect, test } from 'vitest';
import { compileTemplate, type TemplateContext } from './template.js';

const context: TemplateContext = {
  params: { id: '42' },
  url: new URL('https://api.x.com/users/42?page=3&tag=a'),
  headers: new Headers({ 'X-Request-Id': 'req-1' }),
  body: { user: { name: 'Ada', age: 36 }, items: [1, 2] },
  state: Object.assign(Object.create(null), { 'cart.total': 99, cart: { count: 2 }, user: { plan: 'gold' } }),
  variant: 'gold',
};
const run = (value: unknown) => compileTemplate(value, 'response.body').evaluate(context);

test('reads params, query, headers, body, state and variant', () => {
  expect(run('{{params.id}}/{{query.page}}/{{headers.x-request-id}}/{{body.user.name}}/{{state.user.plan}}/{{variant}}')).toBe('42/3/req-1/Ada/gold/gold');
});

test('a string that is exactly one template keeps the value\'s type', () => {
  expect(run('{{body.user.age}}')).toBe(36);
  expect(run('{{body.items}}')).toEqual([1, 2]);
  expect(run('{{ body.user }}')).toEqual({ name: 'Ada', age: 36 });
  expect(run('age {{body.user.age}}')).toBe('age 36');
});

test('dotted state keys are keys: the longest existing key wins', () => {
  expect(run('{{state.cart.total}}')).toBe(99);
  expect(run('{{state.cart.count}}')).toBe(2);
});

test('templates inside objects and arrays are filled; values without templates are returned as they are', () => {
  const constant = { a: [1, { b: 'plain' }] };
  expect(run(constant)).toBe(constant);
  expect(run({ id: '{{params.id}}', list: ['{{query.tag}}', 3] })).toEqual({ id: '42', list: ['a', 3] });
});

test('missing values are empty inside a string and undefined alone', () => {
  expect(run('x{{body.nope.deeper}}y')).toBe('xy');
  expect(run('{{query.missing}}')).toBeUndefined();
});

test('prototype keys read nothing inherited', () => {
  expect(run('{{body.constructor}}')).toBeUndefined();
  expect(run('{{body.__proto__}}')).toBeUndefined();
  expect(run('{{state.toString}}')).toBeUndefined();
  const out = run({ ['__proto__']: '{{params.id}}' }) as Record<string, unknown>;
  expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
});

test('only templates are marked as reading the body', () => {
  expect(compileTemplate({ a: '{{body.x}}' }, 'f').readsBody).toBe(true);
  expect(compileTemplate({ a: '{{params.x}}' }, 'f').readsBody).toBe(false);
});

test('an unknown source fails at compile time naming the field', () => {
  expect(() => compileTemplate({ a: '{{parms.id}}' }, 'response.body')).toThrow(/\{\{parms\.id\}\}.*params, query, headers, body, state, variant/);
  expect(() => compileTemplate('{{variant.x}}', 'response.body')).toThrow(/reads nothing/);
});

test('a header template that names no valid header fails at compile time', () => {
  expect(() => compileTemplate('{{headers.}}', 'response.body')).toThrow(/"" is not a valid header name/);
  expect(() => compileTemplate('{{headers.x y}}', 'response.body')).toThrow(/"x y" is not a valid header name/);
  expect(run('{{headers.x-request-id}}')).toBe('req-1');
});

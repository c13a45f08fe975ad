import { expect, test } from 'vitest';
import { productionRefusal } from './production-refusal.js';

const TOKEN = 'b7e2d94c0a1f4e3d8c6b5a4f3e2d1c0b';
const open = { access: undefined, allowProduction: undefined };

test('under NODE_ENV=production without access, an enabled harness is refused, saying why and how to opt in', () => {
  const refusal = productionRefusal(open, { NODE_ENV: 'production' });
  expect(refusal).toMatch(/^Failed to start the harness: NODE_ENV is "production" and the harness is enabled without access control, so anyone who reaches this app could switch the scenario of every request without a test ID \(default-test/);
  expect(refusal).toContain('createHarness({ access: { token: process.env.HARNESS_TOKEN } })');
  expect(refusal).toContain('HARNESS_ALLOW_PRODUCTION=true (createHarness({ allowProduction: true }))');
});

test('a token, an authorize check, allowProduction: true or HARNESS_ALLOW_PRODUCTION=true lets it start', () => {
  expect(productionRefusal({ access: { token: TOKEN }, allowProduction: undefined }, { NODE_ENV: 'production' })).toBeUndefined();
  expect(productionRefusal({ access: { authorize: () => true }, allowProduction: undefined }, { NODE_ENV: 'production' })).toBeUndefined();
  expect(productionRefusal({ access: undefined, allowProduction: true }, { NODE_ENV: 'production' })).toBeUndefined();
  expect(productionRefusal(open, { NODE_ENV: 'production', HARNESS_ALLOW_PRODUCTION: 'true' })).toBeUndefined();
});

test('HARNESS_ALLOW_PRODUCTION other than "true" opts in to nothing, and the refusal says what it holds', () => {
  for (const value of ['1', 'yes', 'TRUE', '']) expect(productionRefusal(open, { NODE_ENV: 'production', HARNESS_ALLOW_PRODUCTION: value }), value).toContain(`(HARNESS_ALLOW_PRODUCTION is ${JSON.stringify(value)}, not "true")`);
  expect(productionRefusal({ access: undefined, allowProduction: false }, { NODE_ENV: 'production' })).toBeDefined();
});

test('outside NODE_ENV=production nothing is refused', () => {
  for (const NODE_ENV of [undefined, 'development', 'test', 'staging', 'Production']) expect(productionRefusal(open, { NODE_ENV }), String(NODE_ENV)).toBeUndefined();
});

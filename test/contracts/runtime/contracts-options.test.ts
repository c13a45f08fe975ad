/**
 * The `contracts` option of createHarness (issue 27): a bad value is refused at creation with the
 * field named and the fix; a document that cannot be read fails start(), naming the file.
 */
import { createHarness } from 'scenario-harness';
import { expect, test } from 'vitest';

const scenarios = { default: { name: 'Nothing', mocks: [] } };
const create = (contracts: unknown) => () => createHarness({ enabled: true, announce: false, scenarios, contracts: contracts as never });

test('a contracts value that is not an object, or has no documents, is refused with the field and an example', () => {
  expect(create('./openapi.yaml')).toThrow(`Invalid createHarness options: expected "contracts" to be an object such as contracts: { openapi: ['./openapi/payments.yaml'], onViolation: 'warn' }, instead got "./openapi.yaml".`);
  expect(create({ openapi: [] })).toThrow('expected "contracts.openapi" to be a non-empty array of OpenAPI documents (file paths, or documents as objects), instead got an array.');
  expect(create({ openapi: ['a.yaml', 3] })).toThrow('expected "contracts.openapi[1]" to be a file path or an OpenAPI document object, instead got 3.');
});

test('a misspelt contracts option or an unknown onViolation is refused by name', () => {
  expect(create({ openapi: ['a.yaml'], onViolaton: 'error' })).toThrow('"contracts.onViolaton" is not a contracts option (did you mean "onViolation"?); use openapi, llm, onViolation or allowRefsOutside.');
  expect(create({ openapi: ['a.yaml'], onViolation: 'throw' })).toThrow(`expected "contracts.onViolation" to be 'warn' or 'error', instead got "throw".`);
});

test('a document that cannot be read fails start(), naming the file; the harness intercepts nothing', async () => {
  const harness = createHarness({ enabled: true, announce: false, scenarios, contracts: { openapi: ['./no-such-openapi.yaml'] } });
  const originalFetch = globalThis.fetch;
  await expect(harness.start()).rejects.toThrow(`Failed to read the API document ./no-such-openapi.yaml: no such file. Check the path (relative paths start from ${process.cwd()}).`);
  expect(globalThis.fetch).toBe(originalFetch);
  await harness.stop();
});

test('a disabled harness ignores contracts: start() reads no document', async () => {
  const harness = createHarness({ enabled: false, announce: false, scenarios, contracts: { openapi: ['./no-such-openapi.yaml'] } });
  await expect(harness.start()).resolves.toBeUndefined();
});

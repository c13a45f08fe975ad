import { expect, test } from 'vitest';
import { unsupportedNodeReason } from './supported-runtime.js';

test('Node 22.12 and newer are supported; older lines are told the version found and the one needed', () => {
  for (const node of ['22.12.0', '22.23.3', '23.0.0', '24.21.0', '26.10.0']) expect(unsupportedNodeReason({ node })).toBeUndefined();
  expect(unsupportedNodeReason({ node: '22.11.0' })).toMatch(/^Node\.js 22\.11\.0 is not supported: scenario-harness needs Node\.js 22\.12 or newer/);
  expect(unsupportedNodeReason({ node: '20.20.2' })).toMatch(/^Node\.js 20\.20\.2 is not supported: .*nvm install 24/);
});

test('Bun and Deno are judged by their own suites, not by the Node version they emulate', () => {
  expect(unsupportedNodeReason({ node: '20.0.0', bun: '1.4.5' })).toBeUndefined();
  expect(unsupportedNodeReason({ node: '20.0.0', deno: '2.9.6' })).toBeUndefined();
});

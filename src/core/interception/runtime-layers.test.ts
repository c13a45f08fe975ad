import { CONTROL_ROUTES } from '../../harness-parts.js';
import { expect, test } from 'vitest';
import { DEFAULT_ENDPOINTS } from '../constants.js';
import { describeStartedHarness } from '../describe-started-harness.js';
import { runtimeLayersFor } from './runtime-layers.js';

test('gives Node every layer and names no gap', () => {
  expect(runtimeLayersFor({ node: '24.21.0' })).toEqual({ name: 'Node.js 24.21.0', undiciDispatcher: true, workerGuard: true, nodeHttp: 'sockets', notIntercepted: [] });
});

test.each([
  [{ node: '24.3.0', bun: '1.4.5' }, 'Bun 1.4.5'],
  [{ node: '24.2.0', deno: '2.9.6' }, 'Deno 2.9.6'],
])('skips the undici dispatcher and the worker guard on %o, sends node:http through loopback, and names what that leaves out', (versions, name) => {
  const layers = runtimeLayersFor(versions);
  // node:http goes through the harness's loopback server: the interception library needs Node's own socket handles.
  expect(layers).toMatchObject({ name, undiciDispatcher: false, workerGuard: false, nodeHttp: 'loopback' });
  expect(layers.notIntercepted.join('\n')).toMatch(/fetch references taken before harness\.start\(\)[\s\S]*undici package[\s\S]*worker threads[\s\S]*HTTP Upgrade requests made with node:http/);
});

test('the start-up line names what the runtime cannot intercept, and nothing on Node', () => {
  const line = (versions: Parameters<typeof runtimeLayersFor>[0]) => describeStartedHarness(1, DEFAULT_ENDPOINTS, 'warn', CONTROL_ROUTES.filter((route) => route.listed !== 'never'), runtimeLayersFor(versions));
  expect(line({ node: '24.21.0' })).not.toContain('NOT intercepted');
  expect(line({ node: '24.3.0', bun: '1.4.5' })).toContain("unhandled calls: 'warn'; on Bun 1.4.5 NOT intercepted: fetch references taken before harness.start()");
});

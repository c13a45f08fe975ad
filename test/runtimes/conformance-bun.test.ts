/**
 * The shared adapter conformance suite on Bun: the Hono adapter on Bun.serve, and
 * scenario-harness/node on Bun's node:http server (issue 28).
 * @see https://github.com/scenario-harness/scenario-harness/issues/28
 */
import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { requireRuntime } from './require-runtime.js';
import { runtimeFixture } from './runtime-fixture.js';

const bun = requireRuntime('bun', { suite: 'adapter conformance on bun', file: 'test/runtimes/conformance-bun.test.ts' });
if (bun !== undefined) {
  defineAdapterSuite({ name: `hono (Bun.serve, Bun ${bun.version})`, start: runtimeFixture('bun', bun.binary, 'conformance-hono-app.js') });
  defineAdapterSuite({ name: `node:http (Bun ${bun.version})`, start: runtimeFixture('bun', bun.binary, 'conformance-node-app.js') });
}

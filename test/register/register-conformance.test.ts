/**
 * Apps with no line of scenario-harness, attached through `node --import scenario-harness/register`
 * and configured from the environment, pass the same conformance suite the adapters pass.
 */
import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startRegisteredApp } from './start-registered-app.js';

for (const framework of ['express', 'fastify', 'koa', 'node'] as const) {
  defineAdapterSuite({ name: `register, ${framework} app with no glue`, start: startRegisteredApp(framework) });
}

import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startElysiaFixture } from './fixtures/elysia.js';

// Elysia on Node (@elysiajs/node): docs/harness.md's recipe, .wrap((handle) => (request) => handleRequest(harness, request, () => handle(request))).
defineAdapterSuite({ name: 'Elysia on Node (handleRequest in .wrap)', start: startElysiaFixture });

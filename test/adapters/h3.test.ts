import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startH3Fixture } from './fixtures/h3.js';

// h3 2 (a fetch-style framework): docs/harness.md's recipe, app.use((event, next) => handleRequest(harness, event.req, next)).
defineAdapterSuite({ name: 'h3 2 (handleRequest middleware)', start: startH3Fixture });

import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startFastifyFixture } from './fixtures/fastify.js';

defineAdapterSuite({ name: 'fastify', start: startFastifyFixture });

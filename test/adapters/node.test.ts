import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startNodeFixture } from './fixtures/node.js';

defineAdapterSuite({ name: 'node:http', start: startNodeFixture });

import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startExpressFixture } from './fixtures/express.js';

defineAdapterSuite({ name: 'express (express.json() before the middleware)', start: startExpressFixture('before') });
defineAdapterSuite({ name: 'express (express.json() after the middleware)', start: startExpressFixture('after') });

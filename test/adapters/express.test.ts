import express4 from 'express4';
import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startExpressFixture } from './fixtures/express.js';

defineAdapterSuite({ name: 'express 5 (express.json() before the middleware)', start: startExpressFixture('before') });
defineAdapterSuite({ name: 'express 5 (express.json() after the middleware)', start: startExpressFixture('after') });
defineAdapterSuite({ name: 'express 4 (express.json() before the middleware)', start: startExpressFixture('before', express4) });
defineAdapterSuite({ name: 'express 4 (express.json() after the middleware)', start: startExpressFixture('after', express4) });

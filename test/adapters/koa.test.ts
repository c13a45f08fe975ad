import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startKoaFixture } from './fixtures/koa.js';

defineAdapterSuite({ name: 'koa (@koa/bodyparser before the middleware)', start: startKoaFixture('before') });
defineAdapterSuite({ name: 'koa (@koa/bodyparser after the middleware)', start: startKoaFixture('after') });

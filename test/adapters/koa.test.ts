import koa2 from 'koa2';
import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startKoaFixture } from './fixtures/koa.js';

defineAdapterSuite({ name: 'koa 3 (@koa/bodyparser before the middleware)', start: startKoaFixture('before') });
defineAdapterSuite({ name: 'koa 3 (@koa/bodyparser after the middleware)', start: startKoaFixture('after') });
defineAdapterSuite({ name: 'koa 2 (@koa/bodyparser before the middleware)', start: startKoaFixture('before', koa2) });
defineAdapterSuite({ name: 'koa 2 (@koa/bodyparser after the middleware)', start: startKoaFixture('after', koa2) });

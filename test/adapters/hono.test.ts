import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startHonoFixture } from './fixtures/hono.js';

defineAdapterSuite({ name: 'hono (@hono/node-server)', start: startHonoFixture });

import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { startFetchFixture } from './fixtures/fetch.js';

// A fetch-style app (SvelteKit's handle, Astro's and React Router's middleware) glued with one handleRequest() call.
defineAdapterSuite({ name: 'fetch handler (handleRequest)', start: startFetchFixture });

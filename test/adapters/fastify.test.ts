import fastify4 from 'fastify4';
import type Fastify from 'fastify';
import { defineAdapterSuite } from '../conformance/adapter-suite.js';
import { fastifyFixture, startFastifyFixture } from './fixtures/fastify.js';

defineAdapterSuite({ name: 'fastify 5', start: startFastifyFixture });
// Fastify 4's types differ from 5's in details the fixture does not use.
defineAdapterSuite({ name: 'fastify 4', start: fastifyFixture(fastify4 as unknown as typeof Fastify) });

// The bench API (MOCK_ORIGIN) as an OpenAPI 3.1 document, for the W1 'harness-contracts' subject:
// every call the app makes and every mock's answer is checked against it, and all of them fit,
// so the run measures the checks' cost, not a violation's log line.
import { MOCK_ORIGIN } from './workloads.js';

const item = {
  type: 'object',
  required: ['id', 'name', 'price', 'scenario'],
  properties: { id: { type: 'string', pattern: '^i\\d{4}$' }, name: { type: 'string' }, price: { type: 'number', minimum: 0 }, scenario: { type: 'string' } },
  additionalProperties: false,
};

const price = {
  type: 'object',
  required: ['sku', 'price', 'currency', 'scenario'],
  properties: { sku: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string', enum: ['EUR', 'USD'] }, scenario: { type: 'string' } },
};

export const benchOpenApi = {
  openapi: '3.1.0',
  info: { title: 'Bench API', version: '1' },
  servers: [{ url: MOCK_ORIGIN }],
  paths: {
    '/items/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: { description: 'The item', content: { 'application/json': { schema: item } } } },
      },
    },
    '/price': {
      post: {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['sku', 'qty'], properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } } } } },
        },
        responses: { 200: { description: 'The price', content: { 'application/json': { schema: price } } } },
      },
    },
  },
};

// Writes schema.json (published as `scenario-harness/schema.json`) from the zod schema that
// validates scenario definitions. Run by `npm run build`; alone: `npm run build:schema`.
// src/files/scenario-json-schema.test.ts fails when the committed file drifts from the zod schema.
import { writeFileSync } from 'node:fs';
import { scenarioJsonSchema } from '../src/files/scenario-json-schema.ts';

const target = new URL('../schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
console.log('wrote schema.json');

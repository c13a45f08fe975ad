import { z } from 'zod';
import { HTTP_METHODS, scenarioMapSchema } from '../core/scenario-schema.js';

/** A JSON Schema document, as plain data. */
export type JsonSchema = { [key: string]: unknown };

/** Where `scenario-harness/schema.json` says it lives, for editors that follow `$id`. */
const SCHEMA_ID = 'https://unpkg.com/scenario-harness/schema.json';

/**
 * Hover texts for editors, by `<owner>.<property>`: the owner is the property (or array) that
 * holds the object. Every entry must land somewhere, so a renamed field fails the build.
 */
const DESCRIPTIONS: Record<string, string> = {
  'scenario.name': 'Human-readable name; GET /__scenario__ returns it as scenarioName.',
  'scenario.description': 'What this scenario stands for, for people reading the file.',
  'scenario.mocks': 'The mocked endpoints of this scenario. The "default" scenario backs every other one.',
  'scenario.variants': 'Named overlays: POST /__scenario__ { "scenario", "variant" } lays a variant\'s mocks over the scenario\'s own.',
  'mocks.method': 'HTTP method or methods this mock answers; omitted: any method.',
  'mocks.url': 'Absolute URL pattern ("https://api.example.com/users/:id"), path ("/v1/charges"), glob ("*/v1/charges", "https://api.example.com/*") or { "regex": { "source", "flags" } } tested against the whole URL.',
  'mocks.match': 'Further criteria; the most specific matching mock wins.',
  'mocks.response': 'The answer. Exactly one of "response" and "sequence".',
  'mocks.sequence': 'Answers given in turn, one per call. Exactly one of "response" and "sequence".',
  'mocks.afterResponse': 'What the mock writes into the test\'s state after answering.',
  'match.body': 'Partial deep match on the JSON body; leaves may be string matchers such as { "contains": "x" }.',
  'match.query': 'Query parameters the URL must carry, each a string or a string matcher.',
  'match.headers': 'Request headers (names case-insensitive), each a string or a string matcher.',
  'match.state': 'Values the test\'s state must hold (deep equality).',
  'response.status': 'HTTP status. Default 200.',
  'response.headers': 'Response headers; values may contain templates such as {{params.id}}.',
  'response.body': 'An object or array is sent as JSON, a string as text. Strings may contain templates ({{params.id}}, {{query.x}}, {{body.a.b}}, {{state.key}}).',
  'response.delay': 'Milliseconds to wait before answering.',
  'response.error': 'A fault instead of an answer: "network" (connection refused), "reset" (connection reset), "timeout" (never answered; the client gives up), "malformed" (half the body, then the connection drops).',
  'sequence.responses': 'The answers, in order.',
  'sequence.repeat': 'Once every answer was given: "last" repeats the last one (default), "cycle" starts over, "none" stops matching.',
  'afterResponse.setState': 'Keys merged into the test\'s state; a key written "items[]" appends to an array.',
};

/** Zod's custom schemas (`z.instanceof(RegExp)`) have no file form: they become "matches nothing" and are removed. */
const NOTHING = JSON.stringify({ not: {} });

/** Owner names as DESCRIPTIONS has them: sequence answers read like a response. */
const OWNER_ALIASES: Record<string, string> = { responses: 'response' };

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rewrites the generated schema in place: drops "matches nothing" branches, adds the method enum and the descriptions. */
function adapt(schema: JsonSchema, owner: string, used: Set<string>): void {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const kept = branches.filter((branch) => JSON.stringify(branch) !== NOTHING);
    schema[key] = kept;
  }
  const properties = isSchema(schema.properties) ? schema.properties : undefined;
  for (const [name, generated] of Object.entries(properties ?? {})) {
    if (!isSchema(generated)) continue;
    const key = `${OWNER_ALIASES[owner] ?? owner}.${name}`;
    const property = key === 'mocks.method' ? methodSchema() : generated;
    properties![name] = property;
    if (DESCRIPTIONS[key] !== undefined) {
      property.description = DESCRIPTIONS[key];
      used.add(key);
    }
    adapt(property, name, used);
  }
  // `response` and `sequence` are exclusive: say so where both are declared (zod checks it in a refinement).
  if (properties?.response !== undefined && properties.sequence !== undefined) {
    schema.oneOf = [{ required: ['response'] }, { required: ['sequence'] }];
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties') continue;
    // Array items and union branches belong to their owner; a map's values too, except the file's own (scenarios).
    const nextOwner = key === 'additionalProperties' ? (owner === 'root' ? 'scenario' : owner) : key === 'items' || key === 'anyOf' || key === 'oneOf' ? owner : key;
    if (isSchema(value)) adapt(value, nextOwner, used);
    else if (Array.isArray(value)) for (const item of value) if (isSchema(item)) adapt(item, nextOwner, used);
  }
}

/** Methods are accepted in any case; editors complete the upper-case names. */
function methodSchema(): JsonSchema {
  const anyCase = `^(?:${HTTP_METHODS.map((method) => [...method].map((c) => `[${c}${c.toLowerCase()}]`).join('')).join('|')})$`;
  const one = { type: 'string', anyOf: [{ enum: [...HTTP_METHODS] }, { pattern: anyCase }] };
  return { anyOf: [one, { type: 'array', minItems: 1, items: one }] };
}

/**
 * The JSON Schema of a scenario file (`scenario-harness/schema.json`), derived from the zod
 * schema every definition is validated with: a map of scenario ID → definition, RegExps only in
 * their data form `{ "regex": { "source", "flags" } }`, and an optional `$schema` key for editors.
 * @note Refinements (a body on a 204, header syntax, templates) stay with zod: loading a file
 * reports them with the file, scenario, mock and field.
 */
export function scenarioJsonSchema(): JsonSchema {
  const generated = z.toJSONSchema(scenarioMapSchema, {
    target: 'draft-07',
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema._zod.def.type === 'custom') Object.assign(jsonSchema, { not: {} });
      // draft-07 says base64 with `contentEncoding`; `format: base64` is unknown to its validators.
      const schema = jsonSchema as { format?: string; contentEncoding?: string; pattern?: string };
      if (schema.format === 'base64') {
        delete schema.format;
        schema.contentEncoding = 'base64';
      }
    },
  }) as JsonSchema;
  const used = new Set<string>();
  adapt(generated, 'root', used);
  const unused = Object.keys(DESCRIPTIONS).filter((key) => !used.has(key));
  if (unused.length > 0) throw new Error(`scenarioJsonSchema: no field for the descriptions of ${unused.join(', ')}; update DESCRIPTIONS.`);
  const { $schema, ...rest } = generated;
  return {
    $schema,
    $id: SCHEMA_ID,
    title: 'scenario-harness scenario file',
    description: 'A map of scenario ID → scenario definition, loaded with loadScenarios() or `scenario-harness serve`.',
    ...rest,
    properties: { $schema: { type: 'string', description: 'The JSON Schema this file follows, for editors.' } },
  };
}

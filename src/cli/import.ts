import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { compileScenarios } from '../core/engine/compile-scenarios.js';
import { quote } from '../core/dev-utils.js';
import type { ScenarioMap } from '../core/types.js';
import { loadScenarioFile } from '../files/load-scenario-file.js';
import { info, print } from './_output.js';
import { defineCommand, UsageError } from './command.js';

const FORMATS = ['openapi', 'har'] as const;
type Format = (typeof FORMATS)[number];
/** Options that only one format reads: given to the other, they are a usage error rather than silently ignored. */
const ONLY: Record<string, Format> = {
  server: 'openapi',
  ids: 'openapi',
  'default-scenario': 'openapi',
  'skip-validation': 'openapi',
  'allow-refs-outside': 'openapi',
  host: 'har',
  'include-assets': 'har',
  'secret-env': 'har',
  redact: 'har',
  'match-header': 'har',
};
const SHOWN_NOTES = 20;

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function countMocks(scenarios: ScenarioMap): number {
  return Object.values(scenarios).reduce((sum, definition) => sum + definition.mocks.length, 0);
}

/** The scenarios already in `path`, to diff against; `undefined` when there is no file (or no valid one, said in a line). */
async function previous(path: string): Promise<ScenarioMap | undefined> {
  try {
    return (await loadScenarioFile(path)).scenarios;
  } catch (error) {
    if ((error as Error).message.includes('no such file')) return undefined;
    info(`${path} exists but is not a valid scenario file: it is replaced without a list of changes.`);
    return undefined;
  }
}

export const importCommand = defineCommand({
  name: 'import',
  args: '<openapi|har> <file> --out <file> [options]',
  summary: 'Write scenarios from an OpenAPI/Swagger document or a HAR file',
  description: [
    'openapi: reads an OpenAPI 3.0/3.1 or Swagger 2 document (JSON or YAML, $refs resolved) and writes',
    'a "default" scenario with one mock per operation (its first 2xx response: example, examples,',
    'the schema\'s example, or a sample of the schema), plus one scenario per named example and per',
    'documented error status, holding only that mock: <name>:<operationId>:<example or status>.',
    '',
    'har: reads a HAR file (browser dev tools, Playwright recordHar, Charles, mitmproxy) and writes',
    'one scenario of its API calls: static assets skipped, volatile values dropped, secrets redacted,',
    'repeated calls as sequences. Refuses to write (exit 1) if a secret value would remain in the file.',
    '',
    'The format of --out follows its extension (.json, .yaml, .yml). When --out exists, prints what',
    'changed: scenarios and mocks added (+), removed (-) and changed (~, with the fields).',
  ].join('\n'),
  options: {
    out: { type: 'string', short: 'o', value: '<file>', description: 'The scenario file to write (.json, .yaml or .yml)' },
    name: { type: 'string', value: '<name>', description: 'openapi: prefix of the generated scenario IDs (payments → payments:createCharge:402); har: the scenario ID (default: "default")' },
    server: { type: 'string', value: '<url|index>', description: 'openapi: the base URL (a URL of your own, or an index into the document\'s servers)', default: 'the first server' },
    ids: { type: 'string', value: '<file.ts>', description: 'openapi: also write the scenario IDs as a TypeScript `as const` list, for typed switching' },
    'default-scenario': { type: 'string', value: '<id>', description: 'openapi: the ID of the scenario with one mock per operation', default: 'default' },
    'skip-validation': { type: 'boolean', description: 'openapi: import a document that does not validate against its specification' },
    'allow-refs-outside': { type: 'boolean', description: 'openapi: let $refs read local files outside the document\'s folder (their content goes into the scenario file)' },
    host: { type: 'string', multiple: true, value: '<host>', description: 'har: only calls to this host (api.stripe.com, *.stripe.com, localhost:4000)' },
    'include-assets': { type: 'boolean', description: 'har: keep images, fonts, stylesheets and scripts (skipped by default)' },
    'secret-env': { type: 'string', multiple: true, value: '<NAME>', description: 'har: an environment variable whose value is replaced by [redacted] wherever it appears' },
    redact: { type: 'string', multiple: true, value: '<name>', description: 'har: one more header, JSON key or query parameter name to redact' },
    'match-header': { type: 'string', multiple: true, value: '<name>', description: 'har: match this request header too (never a secret one)' },
  },
  examples: [
    'scenario-harness import openapi specs/payments.yaml --out scenarios/payments.json --name payments --ids scenarios/payments.ids.ts',
    'scenario-harness import openapi petstore.json --out scenarios/petstore.yaml --server http://localhost:4010',
    'scenario-harness import har checkout.har --out scenarios/checkout.json --host api.stripe.com --secret-env STRIPE_KEY',
  ],
  async run({ values, positionals }) {
    const [format, file, ...extra] = positionals;
    if (format === undefined) throw new UsageError('What to import? Give a format and a file: scenario-harness import openapi spec.yaml --out scenarios/api.json');
    if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`Unknown import format ${quote(format)}. Formats: ${FORMATS.join(', ')}.`);
    if (file === undefined) throw new UsageError(`Which file? Give the ${format === 'har' ? 'HAR file' : 'OpenAPI document'}: scenario-harness import ${format} <file> --out <file>`);
    if (extra.length > 0) throw new UsageError(`One file at a time: ${quote(extra[0])} is one too many.`);
    const out = values.out;
    if (out === undefined) throw new UsageError(`Where to? Give the scenario file to write: --out scenarios/${format === 'har' ? 'recorded' : 'api'}.json`);
    const extension = extname(out).toLowerCase();
    if (!['.json', '.yaml', '.yml'].includes(extension)) throw new UsageError(`Expected --out to end in .json, .yaml or .yml, instead got ${quote(out)}.`);
    for (const [option, owner] of Object.entries(ONLY)) {
      if (values[option as keyof typeof values] !== undefined && owner !== format) throw new UsageError(`--${option} is for "import ${owner}", not "import ${format}".`);
    }
    if (values.ids !== undefined && extname(values.ids) !== '.ts') throw new UsageError(`Expected --ids to end in .ts, instead got ${quote(values.ids)}.`);
    const fileFormat = extension === '.json' ? 'json' : 'yaml';

    let scenarios: ScenarioMap;
    let text: string;
    const summary: string[] = [];
    const details: string[] = [];
    let idsText: string | undefined;
    if (format === 'openapi') {
      // Loaded here only: `--help` and the other commands never load the OpenAPI parsers.
      const { importOpenApi } = await import('../import/import-openapi.js');
      const { formatScenarioFile } = await import('../record/format-scenario-file.js');
      const imported = await importOpenApi(file, { name: values.name, server: values.server, defaultScenario: values['default-scenario'], validate: values['skip-validation'] !== true, allowRefsOutside: values['allow-refs-outside'] === true });
      scenarios = imported.scenarios;
      text = await formatScenarioFile(scenarios, fileFormat);
      const sources = Object.entries(imported.exampleSources).map(([source, count]) => `${count} ${source === 'sample' ? 'sampled from the schema' : `from ${source === 'examples' ? 'named examples' : `the ${source}`}`}`);
      summary.push(`${imported.specification}, ${plural(imported.operations, 'operation')}${sources.length > 0 ? `; default answers: ${sources.join(', ')}` : ''}`);
      details.push(...imported.notes);
      if (values.ids !== undefined) {
        const { idsModule } = await import('../import/ids-module.js');
        idsText = idsModule(imported.ids, { name: values.name, command: `scenario-harness import openapi ${[file, ...(values.name ? ['--name', values.name] : [])].join(' ')}` });
      }
    } else {
      const { importHar } = await import('../import/import-har.js');
      const { recorded, skipped } = await importHar(file, {
        hosts: values.host,
        includeAssets: values['include-assets'] === true,
        scenarioId: values.name,
        name: `Recorded from ${file}`,
        secrets: { env: values['secret-env'] },
        redact: { headers: values.redact, keys: values.redact },
        matchHeaders: values['match-header'],
      });
      scenarios = recorded.scenarios;
      text = await recorded.toFileText(fileFormat);
      const left = [skipped.assets > 0 ? `${skipped.assets} static assets` : '', skipped.otherHosts > 0 ? `${plural(skipped.otherHosts, 'call')} to other hosts` : '', skipped.unreadable.length > 0 ? `${skipped.unreadable.length} unreadable entries` : ''].filter(Boolean);
      summary.push(`${plural(recorded.calls, 'call')}${left.length > 0 ? `; skipped ${left.join(', ')}` : ''}; ${plural(recorded.redactions.length, 'redaction')}`);
      details.push(...recorded.redactions.map((r) => `redacted: ${r.mock}: ${r.field} ${r.action} (${r.reason})`), ...skipped.unreadable, ...recorded.notes);
    }
    // The output must load as it will be loaded: a failure here is a bug of ours, said plainly.
    compileScenarios(scenarios, { file: out });

    const before = await previous(out);
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, text);
    if (idsText !== undefined) {
      await mkdir(dirname(values.ids!), { recursive: true });
      await writeFile(values.ids!, idsText);
    }
    info(`Wrote ${out}: ${plural(Object.keys(scenarios).length, 'scenario')}, ${plural(countMocks(scenarios), 'mock')} (${summary.join('')}).${idsText !== undefined ? ` IDs: ${values.ids}.` : ''}`);
    for (const line of details.slice(0, SHOWN_NOTES)) info(`  ${line}`);
    if (details.length > SHOWN_NOTES) info(`  …and ${details.length - SHOWN_NOTES} more.`);
    if (before !== undefined) {
      const { diffScenarios, formatScenarioDiff } = await import('../record/diff-scenarios.js');
      info(`Changes to ${out}:`);
      print(formatScenarioDiff(diffScenarios(before, scenarios)));
    }
    return 0;
  },
});

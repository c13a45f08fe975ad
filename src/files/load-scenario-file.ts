import { readTextFile } from './read-text-file.js';
import { extname } from 'node:path';
import { compileScenarios, type LocateInFile } from '../core/engine/compile-scenarios.js';
import { HarnessError, isHarnessError } from '../core/errors.js';
import { importLazily } from '../core/import-lazily.js';
import { locateInDocument } from './locate-in-document.js';
import type { ScenarioMap } from '../core/types.js';

/** One scenario file, read, parsed and validated. */
export interface ScenarioFile {
  /** The path as it was given. */
  path: string;
  scenarios: ScenarioMap;
}

const FORMATS: Record<string, 'json' | 'yaml'> = { '.json': 'json', '.yaml': 'yaml', '.yml': 'yaml' };

/** `line 3, column 5` for a character offset, as editors count them. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // @note V8 (Node 22, 24 and 26 alike) ends a syntax error with "(line 3 column 5)" and gives
    // no place at all for an input that ends early, so the place is worked out here from the
    // offset (or the text's end) and written as the harness's other file errors write it.
    const reason = (error as Error).message.replace(/\s*\(line \d+ column \d+\)$/, '');
    const offset = /at position (\d+)/.exec(reason)?.[1];
    const at = offset !== undefined ? Number(offset) : /end of (JSON )?input/i.test(reason) ? text.length : undefined;
    const where = at === undefined ? '' : ` at ${lineAndColumn(text, at)}`;
    throw new HarnessError('INVALID_SCENARIOS', `Failed to load scenario file ${path}: it is not valid JSON${where} (${reason}). Fix the syntax, or check it with an editor that knows JSON.`);
  }
}

/** The YAML parser, loaded on first use (through importLazily: a bundled app gets an error that says what to change). */
function loadYaml(path: string): Promise<typeof import('yaml')> {
  return importLazily(() => import('yaml'), 'yaml', (reason, remedy, cause) =>
    new HarnessError('INVALID_SCENARIOS', `Failed to load scenario file ${path}: the YAML parser did not load: ${reason}. ${remedy}`, { cause }),
  );
}

/** A YAML file's value and where each of its fields is written; every syntax error at once, each with its line and column. */
async function parseYaml(text: string, path: string): Promise<{ value: unknown; locate: LocateInFile }> {
  // Loaded here only: an app that never reads a YAML file never loads the parser.
  const yaml = await loadYaml(path);
  const lineCounter = new yaml.LineCounter();
  const document = yaml.parseDocument(text, { lineCounter });
  if (document.errors.length > 0) {
    const messages = document.errors.map((error) => error.message.trimEnd());
    const remedy = messages.some((message) => message.includes('multiple documents'))
      ? 'A scenario file holds one document: merge them into one map, or split them into files.'
      : `Fix the syntax there${messages.length > 1 ? ' (each place above)' : ''}.`;
    const listed = messages.length === 1 ? messages[0]! : messages.map((message, i) => `(${i + 1}) ${message}`).join('\n');
    throw new HarnessError('INVALID_SCENARIOS', `Failed to load scenario file ${path}: it is not valid YAML: ${listed}\n${remedy}`);
  }
  return { value: document.toJS() as unknown, locate: locateInDocument(yaml, document, lineCounter) };
}

/** Where each field of a JSON file is written (read by the YAML parser, loaded only for a file with problems). */
async function locateInJson(text: string, path: string): Promise<LocateInFile | undefined> {
  const yaml = await loadYaml(path);
  const lineCounter = new yaml.LineCounter();
  const document = yaml.parseDocument(text, { lineCounter });
  return document.errors.length === 0 ? locateInDocument(yaml, document, lineCounter) : undefined;
}

/**
 * Read one `.json` / `.yaml` / `.yml` scenario file and validate it the way `createHarness`
 * validates definitions in code. Throws a `HarnessError` naming the file (and, for a
 * definition problem, the scenario ID, mock index and field).
 */
export async function loadScenarioFile(path: string): Promise<ScenarioFile> {
  const format = FORMATS[extname(path).toLowerCase()];
  if (format === undefined) {
    throw new HarnessError('INVALID_ARGUMENT', `Failed to load scenario file ${path}: unknown file type ${JSON.stringify(extname(path) || '(none)')}. Scenario files end in .json, .yaml or .yml.`);
  }
  const text = await readTextFile(path, `load scenario file ${path}`);
  const { value: parsed, locate } = format === 'json' ? { value: parseJson(text, path), locate: undefined } : await parseYaml(text, path);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const got = parsed === null ? 'nothing (an empty document)' : Array.isArray(parsed) ? 'a list' : `a ${typeof parsed}`;
    throw new HarnessError('INVALID_SCENARIOS', `Failed to load scenario file ${path}: expected a map of scenario ID → definition at the top level, instead got ${got}.`);
  }
  // `$schema` points editors at scenario-harness/schema.json; it is not a scenario.
  const scenarios = Object.fromEntries(Object.entries(parsed).filter(([key]) => key !== '$schema'));
  // Object.fromEntries keeps a `__proto__` key as an own key, so the schema sees and checks it.
  try {
    compileScenarios(scenarios, { file: path, ...(locate === undefined ? {} : { locate }) });
  } catch (error) {
    if (format !== 'json' || !isHarnessError(error) || error.code !== 'INVALID_SCENARIOS') throw error;
    // The same problems again, now with the line and column of each in the file.
    const located = await locateInJson(text, path);
    if (located === undefined) throw error;
    compileScenarios(scenarios, { file: path, locate: located });
  }
  return { path, scenarios: scenarios as ScenarioMap };
}

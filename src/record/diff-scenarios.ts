import type { Mock, ScenarioDefinition, ScenarioMap } from '../core/types.js';
import { canonicalJson, childPath, isPlainObject } from './plain-data.js';
import { isRecordedStream } from './recorded-stream.js';

/** One mock, named by its scenario and its key (its `id`, else method, URL and match). */
export interface MockRef {
  scenario: string;
  mock: string;
}

/** What changed in one mock: the field paths that differ (`response.body.status`, `match.query.page`). */
export interface MockChange extends MockRef {
  fields: string[];
}

/** What re-recording (or re-importing) changed, scenario by scenario and mock by mock. */
export interface ScenarioDiff {
  addedScenarios: string[];
  removedScenarios: string[];
  added: MockRef[];
  removed: MockRef[];
  changed: MockChange[];
}

/** A mock's key: its `id`, or (without one) its method, URL and match. Variant mocks carry the variant's name. */
function mockKey(mock: Mock): string {
  if (mock.id !== undefined) return mock.id;
  const method = Array.isArray(mock.method) ? mock.method.join('|') : (mock.method ?? '*');
  const url = typeof mock.url === 'string' ? mock.url : mock.url instanceof RegExp ? String(mock.url) : `/${mock.url.regex.source}/`;
  return `${method} ${url}${mock.match !== undefined ? ` ${canonicalJson(mock.match)}` : ''}`;
}

function mocksOf(definition: ScenarioDefinition): Map<string, Mock> {
  const out = new Map<string, Mock>();
  const add = (mock: Mock, prefix: string) => {
    let key = `${prefix}${mockKey(mock)}`;
    for (let n = 2; out.has(key); n++) key = `${prefix}${mockKey(mock)} (${n})`;
    out.set(key, mock);
  };
  for (const mock of definition.mocks) add(mock, '');
  for (const [name, variant] of Object.entries(definition.variants ?? {})) for (const mock of variant.mocks) add(mock, `variant ${name}: `);
  return out;
}

/** A recorded stream without its chunks' times: they differ on every recording, so they are not compared. */
function untimed(value: unknown): unknown {
  return isRecordedStream(value) ? { ...value, chunks: value.chunks.map(({ text }) => ({ text })) } : value;
}

/** The paths where two values differ, shallowest first. A recorded stream's chunk times are not compared. */
function differences(a: unknown, b: unknown, path: string, out: string[]): void {
  a = untimed(a);
  b = untimed(b);
  if (canonicalJson(a) === canonicalJson(b)) return;
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])]) differences(a[key], b[key], childPath(path, key), out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((item, i) => differences(item, b[i], childPath(path, i), out));
    return;
  }
  out.push(path);
}

/**
 * What changed between two scenario maps: scenarios added and removed, and in the scenarios
 * both have, mocks added, removed and changed (with the fields that changed). Scenario names
 * and descriptions are not compared: a recording's description holds its time.
 */
export function diffScenarios(before: ScenarioMap, after: ScenarioMap): ScenarioDiff {
  const diff: ScenarioDiff = { addedScenarios: [], removedScenarios: [], added: [], removed: [], changed: [] };
  for (const scenario of Object.keys(before)) if (!Object.hasOwn(after, scenario)) diff.removedScenarios.push(scenario);
  for (const [scenario, definition] of Object.entries(after)) {
    if (!Object.hasOwn(before, scenario)) {
      diff.addedScenarios.push(scenario);
      continue;
    }
    const old = mocksOf(before[scenario]!);
    const now = mocksOf(definition);
    for (const key of old.keys()) if (!now.has(key)) diff.removed.push({ scenario, mock: key });
    for (const [key, mock] of now) {
      const previous = old.get(key);
      if (previous === undefined) {
        diff.added.push({ scenario, mock: key });
        continue;
      }
      const fields: string[] = [];
      differences(previous, mock, '', fields);
      if (fields.length > 0) diff.changed.push({ scenario, mock: key, fields });
    }
  }
  return diff;
}

/** True when the diff has nothing in it. */
export function isEmptyDiff(diff: ScenarioDiff): boolean {
  return diff.addedScenarios.length + diff.removedScenarios.length + diff.added.length + diff.removed.length + diff.changed.length === 0;
}

const FIELDS_SHOWN = 6;

/**
 * The diff for people: one line per scenario added or removed, and per mock added (`+`),
 * removed (`-`) or changed (`~`, with the fields), grouped by scenario.
 *
 * @example
 * scenario "default":
 *   + GET api.x.com/v1/refunds
 *   ~ POST api.x.com/v1/charges: response.body.status, match.body.amount
 */
export function formatScenarioDiff(diff: ScenarioDiff): string {
  if (isEmptyDiff(diff)) return 'No changes.';
  const lines: string[] = [];
  for (const id of diff.addedScenarios) lines.push(`+ scenario ${JSON.stringify(id)}`);
  for (const id of diff.removedScenarios) lines.push(`- scenario ${JSON.stringify(id)}`);
  const scenarios = [...new Set([...diff.added, ...diff.removed, ...diff.changed].map(({ scenario }) => scenario))];
  for (const scenario of scenarios) {
    lines.push(`scenario ${JSON.stringify(scenario)}:`);
    for (const { mock } of diff.added.filter((ref) => ref.scenario === scenario)) lines.push(`  + ${mock}`);
    for (const { mock } of diff.removed.filter((ref) => ref.scenario === scenario)) lines.push(`  - ${mock}`);
    for (const { mock, fields } of diff.changed.filter((ref) => ref.scenario === scenario)) {
      const shown = fields.slice(0, FIELDS_SHOWN).join(', ');
      lines.push(`  ~ ${mock}: ${shown}${fields.length > FIELDS_SHOWN ? `, …and ${fields.length - FIELDS_SHOWN} more` : ''}`);
    }
  }
  return lines.join('\n');
}

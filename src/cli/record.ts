import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { resolveToken } from '../client/resolve-token.js';
import { HARNESS_TOKEN_ENV } from '../core/constants.js';
import { loadScenarioFile } from '../files/load-scenario-file.js';
import { print, problem } from './_output.js';
import { defineCommand, UsageError } from './command.js';

interface RecordingAnswer {
  testId?: string;
  exchanges?: number;
  scenarios?: unknown;
  fileText?: string;
  error?: string;
}

/** One call to the app's record endpoint, with the test ID, and HARNESS_TOKEN as a bearer token when it is set (an app with access control). */
async function callRecordEndpoint(url: URL, method: string, testId: string, body?: unknown): Promise<RecordingAnswer> {
  const token = resolveToken(undefined, HARNESS_TOKEN_ENV);
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        'x-harness-test-id': testId,
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new Error(`Failed to reach ${url.origin}: ${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}. Is the app running, with the harness enabled?`);
  }
  const text = await response.text();
  let answer: RecordingAnswer;
  try {
    answer = JSON.parse(text) as RecordingAnswer;
  } catch {
    throw new Error(`${method} ${url.href} answered ${response.status} with no JSON (${text.slice(0, 120)}). Is the harness enabled in the app, and is ${url.pathname} its record endpoint (--endpoint)?`);
  }
  if (response.status === 401) {
    const fix = token === undefined ? `The app's harness has access control: set ${HARNESS_TOKEN_ENV} to its token, e.g. ${HARNESS_TOKEN_ENV}=… scenario-harness record ${url.origin} …` : `${HARNESS_TOKEN_ENV} is not the token the app's harness expects.`;
    throw new Error(`${method} ${url.href} answered 401: ${answer.error ?? text} ${fix}`);
  }
  if (!response.ok) throw new Error(`${method} ${url.href} answered ${response.status}: ${answer.error ?? text}`);
  return answer;
}

/** Resolves on Ctrl+C (SIGINT) or SIGTERM. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    // Nothing else keeps the process alive while it waits.
    const keepAlive = setInterval(() => {}, 2 ** 30);
    const done = () => {
      clearInterval(keepAlive);
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

export const recordCommand = defineCommand({
  name: 'record',
  args: '<app-url>',
  summary: 'Record one test ID\'s calls in a running app into a scenario file',
  description: [
    'Starts recording in a running app (its harness enabled) for one test ID, waits while you',
    'use the app (a browser, curl, a test) with that test ID, and on Ctrl+C stops and writes the',
    'draft scenario file: the calls that went to the real APIs, as mocks, secrets redacted.',
    '',
    'In "missing" mode (the default) the test\'s scenario answers what it can and only the other',
    'calls go out and are recorded; in "all" mode every call goes out. Other test IDs keep their',
    'scenarios meanwhile. Requests without a test ID run as "default-test" (the default here).',
    '',
    'An app whose harness has access control (a token) needs HARNESS_TOKEN set to that token.',
  ].join('\n'),
  options: {
    out: { type: 'string', short: 'o', value: '<file>', description: 'Where to write the scenario file (.json or .yaml)' },
    'test-id': { type: 'string', value: '<id>', description: 'The test ID to record', default: 'default-test' },
    mode: { type: 'string', value: '<mode>', description: 'missing (the scenario answers what it can) or all (every call)', default: 'missing' },
    endpoint: { type: 'string', value: '<path>', description: 'The app\'s record endpoint', default: '/__harness__/record' },
  },
  examples: ['scenario-harness record http://127.0.0.1:3000 --out scenarios/recorded.json', 'scenario-harness record http://127.0.0.1:3000 --test-id manual-1 --mode all --out recorded.yaml'],
  async run({ positionals, values }) {
    const [app, extra] = positionals;
    if (app === undefined) throw new UsageError('Which app? Give its URL: scenario-harness record http://127.0.0.1:3000 --out recorded.json');
    if (extra !== undefined) throw new UsageError(`One app URL only, instead got also ${JSON.stringify(extra)}.`);
    const out = values.out;
    if (out === undefined) throw new UsageError('Where to? Give --out <file> (.json, .yaml or .yml).');
    if (!/\.(json|ya?ml)$/i.test(out)) throw new UsageError(`Expected --out to end in .json, .yaml or .yml, instead got ${JSON.stringify(out)}.`);
    const mode = values.mode ?? 'missing';
    if (mode !== 'missing' && mode !== 'all') throw new UsageError(`Expected --mode to be missing or all, instead got ${JSON.stringify(mode)}.`);
    let url: URL;
    try {
      url = new URL(values.endpoint ?? '/__harness__/record', app);
    } catch {
      throw new UsageError(`Expected an app URL such as http://127.0.0.1:3000, instead got ${JSON.stringify(app)}.`);
    }
    const testId = values['test-id'] ?? 'default-test';
    await callRecordEndpoint(url, 'POST', testId, { mode });
    // Listen for Ctrl+C before saying so: a signal sent the moment the line is read must stop and
    // write the file, not end the process (a CI run saw exactly that under load).
    const stopped = untilStopped();
    print(`Recording test ${JSON.stringify(testId)} in ${url.origin} (mode: ${mode}). Use the app with the header x-harness-test-id: ${testId}; press Ctrl+C to stop and write ${out}.`);
    await stopped;
    const answer = await callRecordEndpoint(new URL(`${url.pathname}?format=${/\.ya?ml$/i.test(out) ? 'yaml' : 'json'}`, url), 'DELETE', testId);
    if (answer.fileText === undefined) {
      problem(`Nothing to write: ${answer.error ?? 'the app returned no scenario file'}.`);
      return 1;
    }
    const before = existsSync(out) ? await loadScenarioFile(out).then((file) => file.scenarios, () => undefined) : undefined;
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, answer.fileText);
    print(`Wrote ${out}: ${answer.exchanges ?? 0} recorded call(s).`);
    if (before !== undefined) {
      // Re-recording: what was added, removed and changed, per mock.
      const { diffScenarios, formatScenarioDiff } = await import('../record/diff-scenarios.js');
      print(`Changes to ${out}:`);
      print(formatScenarioDiff(diffScenarios(before, (await loadScenarioFile(out)).scenarios)));
    }
    return 0;
  },
});

import { quote } from '../core/dev-utils.js';
import type { ControlConnection } from './control-connection.js';
import { isRecord } from './is-record.js';

/*
 * Recording: the app keeps the test's real calls and hands them back as a draft scenario file.
 * The Playwright fixture's `harnessRecord` writes that draft to disk (src/playwright/write-recording.ts).
 */

/** What `stopRecording()` returns: the draft scenario file of the test's recorded calls. */
export interface RecordedDraft {
  testId: string;
  /** How many calls were recorded. */
  exchanges: number;
  /** The scenario map, as data. */
  scenarios: Record<string, unknown>;
  /** What was redacted (field and reason, never the value). */
  redactions: unknown[];
  notes: string[];
  /** The file to write (JSON or YAML). */
  fileText: string;
}

export async function startRecording(connection: ControlConnection, mode: 'missing' | 'all' = 'missing'): Promise<void> {
  const action = `start recording test ${quote(connection.testId)}`;
  const response = await connection.send(action, 'POST', connection.endpoints.record, { mode });
  if (response.status !== 200) connection.fail(action, 'POST', connection.endpoints.record, response);
}

/** The draft's format travels in the query: the `DELETE` that stops the recording has no body. */
export async function stopRecording(connection: ControlConnection, options: { format?: 'json' | 'yaml' } = {}): Promise<RecordedDraft> {
  const action = `stop recording test ${quote(connection.testId)}`;
  const path = `${connection.endpoints.record}?format=${options.format ?? 'json'}`;
  const response = await connection.send(action, 'DELETE', path);
  if (response.status !== 200 || !isRecord(response.body) || typeof response.body.fileText !== 'string') connection.fail(action, 'DELETE', path, response);
  return response.body as unknown as RecordedDraft;
}

import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { TestInfo } from '@playwright/test';
import type { RecordedDraft } from '../client/harness-client.js';

/** A file name from a test's title path: letters, digits and dashes. */
function fileNameOf(testInfo: TestInfo): string {
  const title = testInfo.titlePath.slice(1).join(' ');
  return `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 120) || 'recording'}.json`;
}

/**
 * Stop the test's recording and write its draft scenario file (`harnessRecord`), and attach its
 * path to the result. A leak refused by the app fails the test with its message.
 */
export async function writeRecording(harness: { stopRecording(): Promise<RecordedDraft> }, testInfo: TestInfo, dir: string): Promise<void> {
  const draft = await harness.stopRecording();
  const path = resolve(dir, fileNameOf(testInfo));
  await mkdir(resolve(dir), { recursive: true });
  await writeFile(path, draft.fileText);
  await testInfo.attach('scenario-harness recording', { body: `${draft.exchanges} call(s) recorded into ${join(dir, fileNameOf(testInfo))}`, contentType: 'text/plain' });
}

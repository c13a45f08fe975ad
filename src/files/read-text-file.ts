import { readFile } from 'node:fs/promises';
import { HarnessError } from '../core/errors.js';

/**
 * A file's text, or an `INVALID_ARGUMENT` error that says what failed (`action`, e.g.
 * `load scenario file x.yaml`), why in words (no such file, a directory) and where relative
 * paths start from.
 */
export async function readTextFile(path: string, action: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : message;
    throw new HarnessError('INVALID_ARGUMENT', `Failed to ${action}: ${reason}. Check the path (relative paths start from ${process.cwd()}).`, { cause: error });
  }
}

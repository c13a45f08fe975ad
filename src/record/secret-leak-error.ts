import { HarnessError } from '../core/errors.js';
import type { SecretLeak } from './find-secret-leaks.js';

const SHOWN = 5;

/** The error that refuses a leak: where each secret is and where it came from, never its value. */
export function secretLeakError(scenarioId: string, leaks: readonly SecretLeak[]): HarnessError {
  const lines = leaks.slice(0, SHOWN).map(({ path, form, source }) => `  - ${path}: ${source}${form === 'as is' ? '' : ` (${form})`}`);
  if (leaks.length > SHOWN) lines.push(`  - …and ${leaks.length - SHOWN} more`);
  return new HarnessError(
    'SECRET_LEAK',
    [
      `Failed to write the recorded scenario ${JSON.stringify(scenarioId)}: it still holds a secret value, so nothing was written.`,
      ...lines,
      'A known secret is replaced where it appears as is in a text; here it appears in another form (encoded, inside a binary body, or across fields). Redact the field by name (redact.keys / redact.headers, --redact on the command line), or keep that call out of the recording. The value itself is never printed.',
    ].join('\n'),
  );
}

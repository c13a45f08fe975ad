import { tokenProblem } from '../core/access/token-problem.js';
import { HARNESS_TOKEN_ENV } from '../core/constants.js';
import { HarnessError } from '../core/errors.js';

/**
 * The token a client sends as `Authorization: Bearer <token>`: the one given (`option` names
 * where, for messages), else `HARNESS_TOKEN` from the environment when set and not empty, else
 * none. A token that cannot be sent in a header throws `INVALID_OPTIONS`, without showing it.
 *
 * @example
 * resolveToken(options.token, 'createHarnessClient({ token })');
 */
export function resolveToken(given: unknown, option: string): string | undefined {
  const fromEnv = process.env[HARNESS_TOKEN_ENV];
  const [token, source] = given !== undefined ? [given, option] : [fromEnv === '' ? undefined : fromEnv, `the ${HARNESS_TOKEN_ENV} environment variable`];
  if (token === undefined) return undefined;
  const problem = tokenProblem(token, { minLength: 1 });
  if (problem !== undefined) throw new HarnessError('INVALID_OPTIONS', `Failed to use ${source} as the token for the app's control endpoints: ${problem}.`);
  return token as string;
}

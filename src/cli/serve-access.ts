import { tokenProblem } from '../core/access/token-problem.js';
import { HARNESS_TOKEN_ENV } from '../core/constants.js';
import { isLoopback } from '../core/is-loopback.js';
import type { AccessOptions } from '../core/types.js';
import { UsageError } from './command.js';

export interface ServeAccessInput {
  /** `--host`. */
  host: string;
  /** `--token`. */
  token: string | undefined;
  /** `process.env.HARNESS_TOKEN` (empty counts as unset). */
  envToken: string | undefined;
  /** `--insecure-no-token`. */
  insecureNoToken: boolean;
}

/**
 * The server's `access`, from `--token` or HARNESS_TOKEN, or none. Beyond loopback a token is
 * required unless `--insecure-no-token` says the network is trusted: otherwise anyone who
 * reaches the address could drive every test and read what the services sent. A wrong
 * invocation throws `UsageError` (exit code 2).
 *
 * @example
 * serveAccess({ host: '0.0.0.0', token: undefined, envToken: process.env.HARNESS_TOKEN, insecureNoToken: false });
 */
export function serveAccess({ host, token, envToken, insecureNoToken }: ServeAccessInput): AccessOptions | undefined {
  const [given, source] = token !== undefined ? [token, '--token'] : envToken ? [envToken, HARNESS_TOKEN_ENV] : [undefined, undefined];
  if (given !== undefined) {
    const problem = tokenProblem(given, { minLength: 16 });
    if (problem !== undefined) throw new UsageError(`The token from ${source} cannot be used: ${problem}.`);
    if (insecureNoToken) throw new UsageError(`--insecure-no-token contradicts the token given by ${source}: drop one of them.`);
    return { token: given };
  }
  if (insecureNoToken || isLoopback(host)) return undefined;
  throw new UsageError(
    [
      `Refusing to listen on ${host} without a token: beyond this machine, anyone who can reach it could switch any test's scenario, read test state, and read the journal and recordings, which keep the request bodies your services send to payment and identity providers.`,
      `Give a token (${HARNESS_TOKEN_ENV}=$(openssl rand -hex 32) in the environment, or --token <token>) and send it from the tests as "Authorization: Bearer <token>"; or, on a network only your tests can reach, accept the risk with --insecure-no-token.`,
    ].join('\n'),
  );
}

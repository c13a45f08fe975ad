/** The characters RFC 6750 allows in a bearer token (`b64token`): what a header can carry as it is. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The longest token anyone may configure or send; `Authorization` headers are bounded just above it. */
const MAX_TOKEN_LENGTH = 1024;

/**
 * Why `token` cannot be used as a bearer token, or `undefined` when it can. `minLength` is 16
 * where a harness checks its own token (guessable secrets are refused), 1 where a client
 * sends one (the app decides what it accepts).
 *
 * @example
 * tokenProblem('short', { minLength: 16 }); // 'it has 5 characters; use at least 16 …'
 */
export function tokenProblem(token: unknown, { minLength }: { minLength: number }): string | undefined {
  if (typeof token !== 'string') return `expected a string, instead got ${token === null ? 'null' : typeof token}`;
  if (token === '') return 'it is empty';
  if (token.length < minLength) {
    return `it has ${token.length} characters, and a token shorter than ${minLength} can be guessed; use a random one of at least ${minLength}, e.g. the output of "openssl rand -hex 32"`;
  }
  if (token.length > MAX_TOKEN_LENGTH) return `it has ${token.length} characters, over the limit of ${MAX_TOKEN_LENGTH}`;
  if (!B64TOKEN.test(token)) {
    return 'it has characters a bearer token cannot carry (spaces, commas, quotes, non-ASCII…); use letters, digits and - . _ ~ + / (and = at the end), e.g. the output of "openssl rand -hex 32"';
  }
  return undefined;
}

/**
 * Which names hold credentials, so their values never reach a scenario file. One place, so
 * the docs (docs/record-and-import.md, "What is redacted") and the code say the same.
 */

/** What a redacted response value becomes in the file. */
export const REDACTED = '[redacted]';

/** `client_secret`, `Client-Secret`, `clientSecret` → `clientsecret`. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/[-_.\s]/g, '');
}

/** JSON and form keys that are secrets whole: card codes, short password names (`pwd`, `pass`), a bare `jwt`. */
const SECRET_KEYS = new Set(['cvc', 'cvv', 'cvc2', 'cvv2', 'ssn', 'otp', 'auth', 'cookie', 'session', 'pwd', 'pass', 'passcode', 'jwt']);
/** Keys ending like this are secrets: `access_token`, `id_token`, `client_secret`, `api_key`, `db_password`, `x-session-id`, `client_assertion` (a signed JWT). */
const SECRET_SUFFIXES = ['token', 'secret', 'password', 'passwd', 'passphrase', 'apikey', 'privatekey', 'secretkey', 'accesskey', 'sessionid', 'sessionkey', 'credential', 'credentials', 'authorization', 'cookie', 'assertion'];
/**
 * Keys that hold a token in token answers (`{"access": "…", "refresh": "…"}`, as Django REST
 * framework SimpleJWT sends) but a setting elsewhere (`"access": "read"`, `"refresh": 30`,
 * `"access": "read_write_admin"`): a secret only when the value is a string of 16 or more
 * characters without spaces and with a digit, as tokens have and setting names do not.
 */
const TOKEN_WHEN_LONG = new Set(['access', 'refresh']);
/** …except pagination cursors, which only look like tokens: `next_page_token`, `NextToken` (AWS), `continuationToken`. */
const CURSOR_SUFFIXES = ['pagetoken', 'nexttoken', 'continuationtoken', 'synctoken', 'paginationtoken', 'starttoken', 'cursortoken'];

/**
 * True for a JSON or form key whose value is a credential: it ends in `token`, `secret`,
 * `password`, `api_key`, `private_key`, `access_key`, `session_id`, `credential(s)`,
 * `authorization`, `cookie` or `assertion` (any case, `-`/`_`/`.` ignored), or it is `cvc`, `cvv`,
 * `ssn`, `otp`, `auth`, `session`, `pwd`, `pass`, `passcode`, `jwt`. Counts such as `total_tokens` and cursors such as
 * `next_page_token` are not secrets.
 */
export function isSecretKey(name: string, extra: ReadonlySet<string> = NO_NAMES): boolean {
  const key = normalise(name);
  if (extra.has(key)) return true;
  if (SECRET_KEYS.has(key)) return true;
  if (CURSOR_SUFFIXES.some((suffix) => key.endsWith(suffix))) return false;
  return SECRET_SUFFIXES.some((suffix) => key.endsWith(suffix));
}

/**
 * True for a JSON or form field whose value is a credential: a secret key (`isSecretKey`), or
 * `access`/`refresh` holding a token-like string.
 */
export function isSecretField(name: string, value: unknown, extra: ReadonlySet<string> = NO_NAMES): boolean {
  if (isSecretKey(name, extra)) return true;
  return TOKEN_WHEN_LONG.has(normalise(name)) && typeof value === 'string' && /^\S{16,}$/.test(value) && /\d/.test(value);
}

/** Query names that are credentials on top of the secret keys: Google's `key`, the signatures and credentials of presigned URLs (S3, GCS, Azure SAS's `sig`, CloudFront's `Signature`). */
const SECRET_QUERY = new Set(['key', 'sig', 'signature', 'code', 'xamzsignature', 'xamzcredential', 'xamzsecuritytoken', 'xgoogsignature', 'xgoogcredential', 'xgooglecredential', 'xgooglecredentials']);

/** True for a query parameter whose value is a credential (`api_key`, `access_token`, `key`, `X-Amz-Credential`, …). */
export function isSecretQueryParam(name: string, extra: ReadonlySet<string> = NO_NAMES): boolean {
  return SECRET_QUERY.has(normalise(name)) || isSecretKey(name, extra);
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** Extra names given by the user, in the form `isSecretKey` compares. */
export function secretNameSet(names: readonly string[] | undefined): ReadonlySet<string> {
  return new Set((names ?? []).map(normalise));
}

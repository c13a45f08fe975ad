import { emptyRecord } from '../empty-record.js';

const REDACTED = '[redacted]';
const NO_HEADERS: Record<string, string> = Object.freeze(emptyRecord<string>());
/** Header names are decided once: an app sends the same few names on every call. Bounded, for an app that sends many. */
const MAX_NAMES_DECIDED = 1024;
const ALWAYS = ['authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'set-cookie'];
/**
 * Names that carry credentials whatever their exact spelling: `x-auth-token`, `x-client-secret`,
 * `stripe-signature`, `api_key`, `x-jwt-assertion`, and the `…-key` headers of the big platforms
 * (`ocp-apim-subscription-key`, `x-functions-key`, `dd-application-key`, `x-master-key`,
 * `x-auth-key`); an `idempotency-key` is not a secret and stays readable.
 */
const SECRET_LOOKING = /token|secret|passw|api[-_]?key|signature|session|credential|jwt|assertion|(?:^|[-_])(?:auth|subscription|functions|application|master|access|private|client|account|admin)[-_]?key$/i;

/**
 * True for a header whose value is a credential by default: `authorization`, `cookie`,
 * `set-cookie`, `x-api-key`, … and any name with `token`, `secret`, `passw`, `api-key`/`api_key`,
 * `signature`, `session`, `credential`, `jwt` or `assertion` in it, or ending in a platform's `…-key`. The journal and the recorder redact the same ones.
 */
export function isSecretHeaderName(name: string): boolean {
  return ALWAYS.includes(name.toLowerCase()) || SECRET_LOOKING.test(name);
}

/**
 * The request headers as a journal keeps them: lower-case names, one value a name, secret values
 * replaced by `[redacted]`; `redact: false` keeps every value. In the order they came: the journal
 * sorts them when it is read (`sortEntryHeaders`), not on every call.
 */
export function createHeaderRedactor(redact: readonly string[] | false): (headers: Iterable<[string, string]>) => Record<string, string> {
  const names = redact === false ? undefined : new Set(redact.map((name) => name.toLowerCase()));
  const decided = new Map<string, boolean>();
  const isRedacted = (name: string): boolean => {
    let secret = decided.get(name);
    if (secret === undefined) {
      secret = names!.has(name) || isSecretHeaderName(name);
      if (decided.size >= MAX_NAMES_DECIDED) decided.clear();
      decided.set(name, secret);
    }
    return secret;
  };
  return (headers) => {
    let out: Record<string, string> | undefined;
    for (const [name, value] of headers) {
      // Inherits nothing: a header named `__proto__` is kept as a header (see emptyRecord).
      out ??= emptyRecord<string>();
      const secret = names !== undefined && isRedacted(name);
      const before = out[name];
      // A name that comes again (see OutgoingCall.headerEntries): its values joined as Headers
      // joins them; a secret is one `[redacted]`, and a record holds one `set-cookie`, the last.
      out[name] = secret ? REDACTED : before === undefined || name === 'set-cookie' ? value : `${before}, ${value}`;
    }
    // One shared empty record for every call without headers: a journal keeps thousands of entries.
    return out ?? NO_HEADERS;
  };
}

import { REDACTED } from './secret-names.js';

/** A value that must not reach a scenario file, and where it came from (never the value itself). */
export interface KnownSecret {
  value: string;
  /** For messages: `env STRIPE_KEY`, `the value of request.headers.authorization`. */
  source: string;
}

/**
 * Redacted values shorter than this are not searched for elsewhere: `1` or `abc` would be found
 * in every body. Secrets given by name (`secrets.env`) are searched for from `MIN_NAMED_SECRET_LENGTH`.
 */
export const MIN_FOUND_SECRET_LENGTH = 6;
export const MIN_NAMED_SECRET_LENGTH = 4;

/** Every secret value seen during one conversion, to replace wherever it appears and to check the output for. */
export interface SecretRegistry {
  /** Remember a value; values below the length floor (and the placeholder itself) are ignored. */
  add(value: string, source: string, minLength?: number): void;
  list(): readonly KnownSecret[];
  /** The secret a text contains (the longest first), or `undefined`. */
  find(text: string): KnownSecret | undefined;
  /** The text with every known secret replaced by `replacement`, and the secrets it held. */
  replace(text: string, replacement?: string): { text: string; found: KnownSecret[] };
}

/** A fresh registry for one conversion. */
export function createSecretRegistry(): SecretRegistry {
  const byValue = new Map<string, KnownSecret>();
  let sorted: KnownSecret[] | undefined;
  const list = () => (sorted ??= [...byValue.values()].sort((a, b) => b.value.length - a.value.length));
  return {
    add(value, source, minLength = MIN_FOUND_SECRET_LENGTH) {
      if (value.length < minLength || value === REDACTED || byValue.has(value)) return;
      byValue.set(value, { value, source });
      sorted = undefined;
    },
    list,
    find: (text) => list().find(({ value }) => text.includes(value)),
    replace(text, replacement = REDACTED) {
      const found: KnownSecret[] = [];
      let out = text;
      for (const secret of list()) {
        if (!out.includes(secret.value)) continue;
        found.push(secret);
        out = out.split(secret.value).join(replacement);
      }
      return { text: out, found };
    },
  };
}

/**
 * The secret parts of a credential header value worth searching for on their own: the whole
 * value, the credentials after an auth scheme (`Bearer sk_…` → `sk_…`), each cookie's value.
 */
export function credentialParts(name: string, value: string): string[] {
  const parts = [value];
  const scheme = /^[A-Za-z][\w-]*\s+(\S.*)$/.exec(value);
  if (scheme && (name === 'authorization' || name === 'proxy-authorization')) {
    parts.push(scheme[1]!);
    if (/^basic$/i.test(value.split(/\s/)[0]!)) {
      const decoded = Buffer.from(scheme[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon !== -1) parts.push(decoded, decoded.slice(colon + 1));
    }
  }
  if (name === 'cookie' || name === 'set-cookie') {
    const pairs = name === 'cookie' ? value.split(';') : [value.split(';')[0] ?? ''];
    for (const pair of pairs) {
      const equals = pair.indexOf('=');
      if (equals !== -1) parts.push(pair.slice(equals + 1).trim());
    }
  }
  return parts;
}

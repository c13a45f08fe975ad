import { detectSecretValues, type DetectOptions } from './detect-secret-values.js';
import { childPath, isPlainObject } from './plain-data.js';
import { isRecordedStream, joinedChunkText } from './recorded-stream.js';
import type { KnownSecret } from './secret-registry.js';

/** A known secret value found in an output, by field path and form (never the value). */
export interface SecretLeak {
  /** `default.mocks[1].response.headers.location`. */
  path: string;
  /** `as is`, `URL-encoded`, `JSON-escaped`, `base64`, `inside the binary body`. */
  form: string;
  source: string;
}

/** The forms a secret is searched for in: itself and the encodings an upstream or a client writes it in. */
function formsOf(value: string): [string, string][] {
  const forms: [string, string][] = [['as is', value]];
  const add = (form: string, text: string) => {
    if (!forms.some(([, known]) => known === text)) forms.push([form, text]);
  };
  add('URL-encoded', encodeURIComponent(value));
  add('form-encoded', new URLSearchParams({ x: value }).toString().slice(2));
  add('JSON-escaped', JSON.stringify(value).slice(1, -1));
  const bytes = Buffer.from(value, 'utf8');
  add('base64', bytes.toString('base64').replace(/=+$/, ''));
  add('base64url', bytes.toString('base64url'));
  return forms;
}

/** Secrets a text holds by their value (a JWT, a `sk_live_` key, a card number…), as leaks: what they looked like, never the value. */
function detectedLeaks(text: string, path: string, options: DetectOptions, form = 'as is'): SecretLeak[] {
  return detectSecretValues(text, options).map(({ kind }) => ({ path, form, source: `${kind}, found by its value` }));
}

/**
 * Every place in `value` (keys and string or number leaves, and the decoded bytes of
 * `bodyBase64` fields) where one of `secrets` appears as is or in a common encoding (URL, form,
 * JSON escape, base64), or where a value is a secret by its shape (`detectSecretValues`): the
 * last check before anything is written. The redaction has cut out all of these it could
 * rewrite, so what remains here (a key, a binary body) is refused.
 */
export function findSecretLeaks(value: unknown, secrets: readonly KnownSecret[], root = ''): SecretLeak[] {
  const leaks: SecretLeak[] = [];
  const searched = secrets.map((secret) => ({ secret, forms: formsOf(secret.value), bytes: Buffer.from(secret.value, 'utf8') }));
  const scanText = (text: string, path: string, key?: string) => {
    for (const { secret, forms } of searched) {
      const form = forms.find(([, encoded]) => text.includes(encoded));
      if (form) leaks.push({ path, form: form[0], source: secret.source });
    }
    // A binary body's base64 is random by nature: its decoded bytes are what is searched, below.
    if (key !== 'bodyBase64') leaks.push(...detectedLeaks(text, path, { whole: true, name: key }));
  };
  const walk = (node: unknown, path: string, key?: string) => {
    if (typeof node === 'number') {
      scanText(String(node), path, key);
    } else if (typeof node === 'string') {
      scanText(node, path, key);
      if (key === 'bodyBase64') {
        const decoded = Buffer.from(node, 'base64');
        for (const { secret, bytes } of searched) if (decoded.includes(bytes)) leaks.push({ path, form: 'inside the binary body', source: secret.source });
        leaks.push(...detectedLeaks(decoded.toString('latin1'), path, { binary: true }, 'inside the binary body'));
      }
    } else if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, childPath(path, i), key));
    } else if (isPlainObject(node)) {
      if (isRecordedStream(node)) {
        // A recorded stream's chunks joined, as the client reads them: a value split between two chunks is whole here.
        const joined = joinedChunkText(node);
        const where = childPath(path, 'chunks');
        for (const { secret, forms } of searched) {
          const form = forms.find(([, encoded]) => joined.includes(encoded));
          if (form) leaks.push({ path: `${where} (joined)`, form: form[0], source: secret.source });
        }
        leaks.push(...detectedLeaks(joined, `${where} (joined)`, {}));
      }
      for (const [name, item] of Object.entries(node)) {
        const itemPath = childPath(path, name);
        // The object's path, not the key's: a key that is a secret must not be printed either.
        scanText(name, `${path} (one of its keys)`);
        walk(item, itemPath, name);
      }
    }
  };
  walk(value, root);
  return leaks;
}

/**
 * `findSecretLeaks` on a serialised file's text: the known values, in the forms they take in
 * JSON or YAML. Not the shapes: `findSecretLeaks` checked every value already, and a file's
 * base64 bodies, read as one text, would now and then hold a prefix by chance.
 */
export function findSecretsInText(text: string, secrets: readonly KnownSecret[]): SecretLeak[] {
  const leaks: SecretLeak[] = [];
  for (const secret of secrets) {
    const form = formsOf(secret.value).find(([, encoded]) => text.includes(encoded));
    if (form) leaks.push({ path: '(the serialised file)', form: form[0], source: secret.source });
  }
  return leaks;
}

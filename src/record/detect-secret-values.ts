/**
 * Secrets found by their value, whatever the name they travel under: a name list cannot know
 * that `{"server": "sk_live_…"}` or a `Location` fragment holds a credential. One place, so the
 * redaction and the last leak check find the same values (docs/record-and-import.md, "Secrets
 * never reach a file").
 */

/** One secret found in a text: the exact characters to cut out, and what it looked like (for messages, never with the value). */
export interface DetectedSecret {
  value: string;
  kind: string;
  /** The same secret as it may be written elsewhere: a card number without its spaces or dashes. */
  bare?: string;
}

/** How much of the detector runs. */
export interface DetectOptions {
  /**
   * The text is one value on its own (a JSON string, a header or query value, a path segment):
   * the high-entropy rule applies to it. Never to a token inside prose, where long words and
   * identifiers would be taken for keys.
   */
  whole?: boolean;
  /**
   * The name the value travels under (a JSON key, a header name). A name saying the value is a
   * digest (`sha256`, `hash`, `digest`, `checksum`, `etag`, `integrity`, `fingerprint`, `md5`)
   * turns the high-entropy rule off: a base64 digest is as random as a key, and is not one.
   */
  name?: string | undefined;
  /** The text is decoded bytes of a binary body: only the prefix and shape rules, no card numbers (digit runs are everywhere in a PDF). */
  binary?: boolean;
}

/** Credentials with a published prefix; each pattern's whole match is the secret. */
const PREFIXED: [RegExp, string][] = [
  [/\b[sr]k_(?:live|test)_[A-Za-z0-9]{10,}/g, 'a Stripe secret key'],
  [/\bwhsec_[A-Za-z0-9+/=]{20,}/g, 'a Stripe webhook secret'],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}/g, 'a GitHub token'],
  [/\bgithub_pat_[A-Za-z0-9_]{30,}/g, 'a GitHub token'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/g, 'a Slack token'],
  [/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, 'an AWS access key ID'],
  [/\bAIza[A-Za-z0-9_-]{35}/g, 'a Google API key'],
  [/\bya29\.[A-Za-z0-9_-]{20,}/g, 'a Google OAuth token'],
  [/\bglpat-[A-Za-z0-9_-]{20,}/g, 'a GitLab token'],
  [/\bnpm_[A-Za-z0-9]{36}\b/g, 'an npm token'],
  // With a digit in it: `sk-` also starts slugs and Slovak locale names (`sk-sk-default-settings`).
  [/\bsk-(?:proj-|ant-[a-z0-9]+-)?(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}/g, 'an OpenAI or Anthropic key'],
  [/\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, 'a SendGrid key'],
  [/\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b/g, 'a Shopify token'],
];

/** Every prefix above, in one pattern: most texts have none, and one test is cheaper than thirteen (a recording reads every value). */
const ANY_PREFIX = /[sr]k_|whsec_|gh[pousr]_|github_pat_|xox[abprs]-|AKIA|ASIA|AIza|ya29\.|glpat-|npm_|sk-|SG\.|shp(?:at|ss|ca|pa)_/;

/** Secrets that are one part of a match (group 1): the rest (a URL, a scheme) stays readable. */
const IN_CONTEXT: [RegExp, string][] = [
  // Incoming webhooks carry their secret in the path: /services/T…/B…/<secret>, /api/webhooks/<id>/<token>.
  [/\/services\/T[A-Z0-9]{6,}\/B[A-Z0-9]{6,}\/([A-Za-z0-9]{16,})/g, 'a Slack webhook secret'],
  [/\/api\/webhooks\/\d{5,}\/([A-Za-z0-9_-]{30,})/g, 'a Discord webhook token'],
  // Presigned URLs (S3, GCS, Azure SAS, CloudFront) inside any text: a link in an XML or text body.
  // After `?`, `&` or `&amp;` (XML). No `[` in the value: one already redacted by name reads `[redacted]`.
  [/[?&;](?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|X-Goog-Signature|X-Goog-Credential|sig|signature)=([^&#\s"'<>\\[\]]{6,})/gi, 'a signed-URL parameter'],
  // A credential after its scheme; a digit is required so prose ("Bearer authentication") is not one.
  [/\b(?:Bearer|Basic)\s+((?=[A-Za-z0-9._~+/-]*\d)[A-Za-z0-9._~+/-]{8,}=*)/gi, 'a Bearer or Basic credential'],
];

/** A JWT or JWE: base64url parts, the first a JSON header (`{"` is `eyJ`). The header is decoded to be sure. */
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){0,2}/g;

function isJwtHeader(part: string): boolean {
  try {
    const header = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof header === 'object' && header !== null && ('alg' in header || 'enc' in header || 'typ' in header);
  } catch {
    return false;
  }
}

/** 13–19 digits, grouped by spaces or dashes or not, not part of a longer number, a decimal or an identifier. */
const CARD = /(?<![\w.-])\d(?:[ -]?\d){12,18}(?![\w.]|-\d)/g;
/** The issuer ranges of the card networks (Visa, Mastercard, Amex, Diners, JCB, Discover, UnionPay): other Luhn-valid numbers are ids. */
const CARD_ISSUER = /^(?:4|5[1-5]|2[2-7]|3[47]|3[068]|35|6011|64[4-9]|65|62)/;

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

function isCardNumber(text: string): boolean {
  const digits = text.replace(/[ -]/g, '');
  return digits.length >= 13 && digits.length <= 19 && CARD_ISSUER.test(digits) && passesLuhn(digits);
}

const DIGEST_NAME = /sha\d|hash|digest|checksum|etag|integrity|fingerprint|md5|crc/i;

function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) bits -= (count / text.length) * Math.log2(count / text.length);
  return bits;
}

/** Base64 that decodes to readable text is encoded data (a pagination cursor, `{"id":…}`), not a key, which decodes to random bytes. */
function decodesToText(text: string): boolean {
  if (!/^[A-Za-z0-9+/_-]+=*$/.test(text)) return false;
  const bytes = Buffer.from(text.replace(/=+$/, ''), /[+/]/.test(text) ? 'base64' : 'base64url');
  let printable = 0;
  for (const byte of bytes) if ((byte >= 0x20 && byte < 0x7f) || byte === 0x0a || byte === 0x0d || byte === 0x09) printable++;
  return bytes.length > 0 && printable / bytes.length >= 0.95;
}

/**
 * A lone value that reads as a random key: 32–200 characters of letters, digits and `+/=_-`,
 * mixing upper case, lower case and digits, with at least 4.3 bits of entropy per character
 * (4.5 from 48 characters). Measured: random base62 keys of 32 characters lie at 4.2–4.9,
 * long camel-case identifiers (`AbstractSingletonProxyFactoryBean42`) at 3.9–4.25. Left alone:
 * hex of any length (commit SHAs, digests, hex ids), UUIDs and ULIDs (one case), anything shorter
 * than 32 (Stripe-style ids), `sha256-…` and `sha-256=…` digests, base64 of readable text.
 */
function isHighEntropyValue(text: string): boolean {
  if (text.length < 32 || text.length > 200 || !/^[A-Za-z0-9+/=_-]+$/.test(text)) return false;
  if (!/[a-z]/.test(text) || !/[A-Z]/.test(text) || !/\d/.test(text)) return false;
  if (/^[0-9a-f-]+$/i.test(text) || /^sha-?\d+[-=]/i.test(text)) return false;
  if (decodesToText(text)) return false;
  return shannonEntropy(text) >= (text.length < 48 ? 4.3 : 4.5);
}

/**
 * The secrets in a text, found by their value: JWTs, keys with a known prefix (Stripe, GitHub,
 * Slack, AWS, Google, GitLab, npm, OpenAI, SendGrid, Shopify), webhook secrets in URL paths,
 * signed-URL parameters, Bearer and Basic credentials, card numbers of a card network that pass
 * the Luhn check and, for a value on its own (`whole`), long high-entropy strings. Each is the
 * exact characters to cut out; the text around them stays.
 */
export function detectSecretValues(text: string, options: DetectOptions = {}): DetectedSecret[] {
  const found: DetectedSecret[] = [];
  const add = (value: string, kind: string, bare?: string) => {
    if (!found.some((known) => known.value === value)) found.push({ value, kind, ...(bare !== undefined && bare !== value ? { bare } : {}) });
  };
  if (text.length < 8) return found; // the shortest secret found here, `Bearer` + a token, is longer
  if (text.includes('eyJ')) for (const match of text.matchAll(JWT)) if (isJwtHeader(match[0].slice(0, match[0].indexOf('.')))) add(match[0], 'a JWT');
  if (ANY_PREFIX.test(text)) for (const [pattern, kind] of PREFIXED) for (const match of text.matchAll(pattern)) add(match[0], kind);
  if (/[/=\s]/.test(text)) for (const [pattern, kind] of IN_CONTEXT) for (const match of text.matchAll(pattern)) add(match[1]!, kind);
  if (!options.binary && /\d{4}/.test(text)) for (const match of text.matchAll(CARD)) if (isCardNumber(match[0])) add(match[0], 'a card number', match[0].replace(/[ -]/g, ''));
  if (options.whole && found.length === 0 && !(options.name !== undefined && DIGEST_NAME.test(options.name)) && isHighEntropyValue(text)) add(text, 'a high-entropy string');
  return found;
}

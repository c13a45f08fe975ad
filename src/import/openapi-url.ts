import type { Mock } from '../core/types.js';
import type { BaseUrl } from './openapi-base-url.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A template name as a URL pattern parameter (`pet-id` → `pet_id`), unique in its path. */
function paramName(raw: string, taken: Set<string>): string {
  let name = raw.replace(/[^A-Za-z0-9_]/g, '_');
  if (!/^[A-Za-z_]/.test(name)) name = `_${name}`;
  let unique = name;
  for (let n = 2; taken.has(unique); n++) unique = `${name}${n}`;
  taken.add(unique);
  return unique;
}

/**
 * The `url` of an operation's mocks: `/pets/{petId}` → `https://api.x.com/v1/pets/:petId`
 * (path-only when the server URL is relative). A path a URL pattern would misread (a literal
 * `*`, or `:` as in `/v1/{name}:cancel`) becomes an anchored `{ regex }` with named groups.
 */
export function openApiUrl(base: BaseUrl, path: string): Mock['url'] {
  const full = `${base.basePath}${path.startsWith('/') ? path : `/${path}`}`;
  const parts = full.split(/(\{[^}]+\})/);
  const literals = parts.filter((_, i) => i % 2 === 0);
  const misread = literals.some((text) => text.includes('*') || /:[A-Za-z_]/.test(text));
  const taken = new Set<string>();
  if (!misread) {
    const pattern = parts.map((part, i) => (i % 2 === 0 ? part : `:${paramName(part.slice(1, -1), taken)}`)).join('');
    return `${base.origin ?? ''}${pattern}`;
  }
  const source = parts.map((part, i) => (i % 2 === 0 ? escapeRegExp(part) : `(?<${paramName(part.slice(1, -1), taken)}>[^/?#:]+)`)).join('');
  const origin = base.origin !== undefined ? escapeRegExp(base.origin) : 'https?://[^/]+';
  return { regex: { source: `^${origin}${source}/?(?:[?#].*)?$` } };
}

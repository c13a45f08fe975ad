import type { Mock } from '../core/types.js';
import { PATH_WILDCARD } from './scrub-known-secrets.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The `url` of a recorded mock: origin + path, no query. A path that a URL pattern would
 * misread (a literal `*`, or `:name` as in Google's `/v1/operations/x:cancel`) becomes an
 * anchored `{ regex }`; a secret cut out of the path becomes a wildcard.
 */
export function recordedUrl(origin: string, path: string): Mock['url'] {
  const misread = path.includes('*') || /:[A-Za-z_]/.test(path);
  if (!misread) return `${origin}${path.split(PATH_WILDCARD).join('*')}`;
  const source = path.split(PATH_WILDCARD).map(escapeRegExp).join('[^/?#:]*');
  return { regex: { source: `^${escapeRegExp(origin)}${source}/?(?:[?#].*)?$` } };
}

/** `POST api.stripe.com/v1/charges`: how a recorded mock is named (its `id`), before any `#2`. */
export function mockLabel(method: string, host: string, path: string, operationName: string | undefined): string {
  const label = `${method} ${host}${path.split(PATH_WILDCARD).join('*')}${operationName !== undefined ? ` ${operationName}` : ''}`;
  return label.length > 190 ? `${label.slice(0, 189)}…` : label;
}

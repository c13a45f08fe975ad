import { isRecord, type Json } from './json-pointer.js';

/** Where an API document's operations live: one origin (or any, for a relative server URL) and a base path. */
export interface ContractServer {
  /** As the document writes it, variables filled in: `https://sandbox.payments.test/v1`. */
  url: string;
  /** Lower-cased `https://host[:port]`; `undefined` for a relative server URL (any origin). */
  origin: string | undefined;
  /** `''` or `/v1`, no trailing slash. */
  basePath: string;
}

/** More URLs than this from one server's variables is a document listing every region of the world: the rest are left out. */
const MAX_EXPANSIONS = 64;

/** A server URL with `{variables}` filled in: every `enum` value, else the default. */
function expand(url: string, variables: Json): string[] {
  let urls = [url];
  for (const [name, variable] of Object.entries(variables)) {
    if (!isRecord(variable)) continue;
    const values = Array.isArray(variable.enum) && variable.enum.length > 0 ? variable.enum.map(String) : variable.default !== undefined ? [String(variable.default)] : [];
    if (values.length === 0) continue;
    urls = urls.flatMap((u) => values.map((value) => u.split(`{${name}}`).join(value))).slice(0, MAX_EXPANSIONS);
  }
  return urls;
}

function toServer(url: string): ContractServer | undefined {
  const absolute = /^(https?:\/\/[^/?#]+)([^?#]*)/i.exec(url);
  if (absolute !== null) return { url, origin: absolute[1]!.toLowerCase(), basePath: absolute[2]!.replace(/\/+$/, '') };
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.includes('{')) return undefined;
  const path = `/${url.replace(/^\.?\/*/, '')}`.replace(/\/+$/, '');
  return { url, origin: undefined, basePath: path };
}

/**
 * The servers of a document, each a concrete origin and base path: OpenAPI 3 `servers` (with
 * every enumerated value of their variables), or Swagger 2 `schemes` × `host` + `basePath`.
 * Empty when the document names none: no mock can then be said to be under it.
 */
export function contractServers(document: Json): ContractServer[] {
  let urls: string[];
  if (document.swagger !== undefined) {
    if (typeof document.host !== 'string' || document.host === '') return [];
    const basePath = typeof document.basePath === 'string' ? document.basePath : '';
    const schemes = Array.isArray(document.schemes) && document.schemes.length > 0 ? document.schemes.map(String) : ['https'];
    urls = schemes.map((scheme) => `${scheme}://${document.host as string}${basePath}`);
  } else {
    const servers = Array.isArray(document.servers) ? document.servers.filter(isRecord) : [];
    urls = servers.flatMap((server) => expand(String(server.url ?? ''), isRecord(server.variables) ? server.variables : {}));
  }
  const seen = new Set<string>();
  return urls.flatMap((url) => {
    const server = toServer(url);
    if (server === undefined || seen.has(`${server.origin}${server.basePath}`)) return [];
    seen.add(`${server.origin}${server.basePath}`);
    return [server];
  });
}

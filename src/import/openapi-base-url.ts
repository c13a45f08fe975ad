import { HarnessError } from '../core/errors.js';

/** Where an API lives: an origin (or `undefined`: any origin, for a relative server URL) and a base path. */
export interface BaseUrl {
  origin: string | undefined;
  /** `''` or `/v1`: no trailing slash. */
  basePath: string;
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `https://api.x.com/v1/` → origin + `/v1`; `/v1`, `v1`, `.` → path only. */
export function baseUrlOf(url: string): BaseUrl {
  if (/^https?:\/\//i.test(url)) {
    const parsed = new URL(url);
    return { origin: parsed.origin, basePath: parsed.pathname.replace(/\/+$/, '') };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) {
    throw new HarnessError('INVALID_ARGUMENT', `Failed to import the OpenAPI document: the server URL ${JSON.stringify(url)} is not http(s). Pick another server with --server <index or URL>.`);
  }
  const path = url.replace(/^\.?\/?/, '/').replace(/\/+$/, '');
  return { origin: undefined, basePath: path === '/' ? '' : path };
}

/** An OpenAPI 3 server's URL with its `{variables}` set to their defaults. */
function serverUrl(server: Json): string {
  const variables = isRecord(server.variables) ? server.variables : {};
  return String(server.url ?? '/').replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isRecord(variable) && variable.default !== undefined ? String(variable.default) : whole;
  });
}

/** The servers of a document as URLs: OpenAPI 3 `servers`, or Swagger 2 `schemes` + `host` + `basePath`. */
export function documentServers(document: Json): string[] {
  if (document.swagger !== undefined) {
    const basePath = typeof document.basePath === 'string' ? document.basePath : '';
    if (typeof document.host !== 'string') return [basePath || '/'];
    const schemes = Array.isArray(document.schemes) ? (document.schemes as string[]) : [];
    const scheme = schemes.includes('https') ? 'https' : (schemes[0] ?? 'https');
    return [`${scheme}://${document.host}${basePath}`];
  }
  const servers = Array.isArray(document.servers) ? document.servers.filter(isRecord) : [];
  return servers.length === 0 ? ['/'] : servers.map(serverUrl);
}

/**
 * The base URL every operation's path is appended to: `--server` (an index into the document's
 * servers, or a URL of your own), else the operation's own `servers`, else the document's first.
 * OpenAPI 3's default server is `/` (path-only patterns, any origin).
 */
export function chooseBaseUrl(document: Json, server: string | undefined, operationServers?: unknown): BaseUrl {
  const servers = documentServers(document);
  if (server !== undefined) {
    if (/^\d+$/.test(server)) {
      const picked = servers[Number(server)];
      if (picked === undefined) {
        throw new HarnessError('INVALID_ARGUMENT', `Failed to import the OpenAPI document: --server ${server} is out of range. Its servers: ${servers.map((url, i) => `${i}: ${url}`).join(', ')}. Give an index or a URL.`);
      }
      return baseUrlOf(picked);
    }
    return baseUrlOf(server);
  }
  if (Array.isArray(operationServers) && operationServers.length > 0 && isRecord(operationServers[0])) return baseUrlOf(serverUrl(operationServers[0]));
  return baseUrlOf(servers[0]!);
}

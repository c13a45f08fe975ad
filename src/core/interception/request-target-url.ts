import type http from 'node:http';

/**
 * The URL a node:http/https `request(url?, options)` goes to, read as Node reads it: the options
 * over the URL's parts. `host` is a name or address, never with a port (Node reads the port from
 * `port` only): '::1' stays '::1'.
 */
export function requestTargetUrl(scheme: 'http' | 'https', options: http.RequestOptions, fromUrl: URL | undefined): URL {
  const protocol = options.protocol ?? fromUrl?.protocol ?? `${scheme}:`;
  const host = options.hostname ?? options.host ?? fromUrl?.hostname ?? 'localhost';
  const port = options.port ?? (fromUrl?.port || undefined) ?? options.defaultPort;
  const path = options.path ?? (fromUrl === undefined ? '/' : `${fromUrl.pathname}${fromUrl.search}`);
  return new URL(`${protocol}//${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}${port === undefined ? '' : `:${port}`}${path}`);
}

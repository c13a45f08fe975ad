/** `/https/api.stripe.com/v1/charges?x=1`: scheme, host (with port), then the rest. */
const HOST_IN_PATH = /^\/(https?)\/([^/?#]+)(.*)$/i;

/**
 * The upstream URL a request to the standalone server stands for, or `undefined` when its path
 * names none. On an upstream's own port (`--upstream https://api.stripe.com=9401`) the path
 * belongs to that origin; on the main port the host is in the path:
 * `/https/api.stripe.com/v1/charges?x=1` → `https://api.stripe.com/v1/charges?x=1`.
 */
export function targetUrlOf(pathAndQuery: string, upstreamOrigin?: string): URL | undefined {
  if (!pathAndQuery.startsWith('/')) return undefined;
  if (upstreamOrigin !== undefined) return new URL(`${upstreamOrigin}${pathAndQuery}`);
  const found = HOST_IN_PATH.exec(pathAndQuery);
  if (found === null) return undefined;
  const [, scheme, host, rest] = found as unknown as [string, string, string, string];
  try {
    return new URL(`${scheme.toLowerCase()}://${host}${rest.startsWith('/') ? rest : `/${rest}`}`);
  } catch {
    return undefined;
  }
}

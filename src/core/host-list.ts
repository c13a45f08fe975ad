/**
 * A host list as a predicate. Entries: `'api.internal'` (any port), `'api.internal:8080'`,
 * `'*.internal'` (any subdomain), or a RegExp tested against the host name.
 * @note Self-contained: the worker guard sends its source text into worker threads (worker-guard-source.ts).
 */
export function compileHostList(entries: readonly (string | RegExp)[]): (hostname: string, port: number | undefined) => boolean {
  if (entries.length === 0) return () => false;
  const tests = entries.map((entry): ((hostname: string, port: number | undefined) => boolean) => {
    if (entry instanceof RegExp) {
      const pattern = new RegExp(entry.source, entry.flags.replace(/[gy]/g, ''));
      return (hostname) => pattern.test(hostname);
    }
    const colon = entry.lastIndexOf(':');
    const hasPort = colon > 0 && /^\d+$/.test(entry.slice(colon + 1)) && !entry.startsWith('[');
    const host = (hasPort ? entry.slice(0, colon) : entry).toLowerCase();
    const port = hasPort ? Number(entry.slice(colon + 1)) : undefined;
    const matchesHost = host.startsWith('*.') ? (name: string) => name.endsWith(host.slice(1)) : (name: string) => name === host;
    return (hostname, actualPort) => matchesHost(hostname.toLowerCase()) && (port === undefined || port === actualPort);
  });
  return (hostname, port) => tests.some((test) => test(hostname, port));
}

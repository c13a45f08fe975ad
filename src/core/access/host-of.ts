/** A `Host` header's name and port; `undefined` when it is not a host at all. */
export interface HostParts {
  /** Lower case, without a trailing dot; an IPv6 address keeps its brackets (`[::1]`). */
  hostname: string;
  /** `undefined` when the header names none. */
  port: number | undefined;
}

// @note Checked before URL parsing: `new URL('http://' + 'evil.example@127.0.0.1')` would read
// the host as 127.0.0.1, so anything but a name, an IPv4 or a bracketed IPv6 with a port is refused.
// "Refused" means `undefined` here; the origin check then refuses the request, since browsers do
// send names this reads as no host (evil$.example: the URL standard allows $ ! = ' in a host).
const HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

/**
 * Read a `Host` header (`localhost:3000`, `[::1]:9400`, `App.Internal.`).
 *
 * @example
 * hostOf('Harness:9400'); // { hostname: 'harness', port: 9400 }
 */
export function hostOf(header: string): HostParts | undefined {
  const match = HOST.exec(header);
  if (match === null) return undefined;
  const port = match[1] === undefined ? undefined : Number(match[1]);
  if (port !== undefined && port > 65535) return undefined;
  const name = header.slice(0, match[1] === undefined ? header.length : header.length - match[1].length - 1).toLowerCase();
  return { hostname: name.endsWith('.') ? name.slice(0, -1) : name, port };
}

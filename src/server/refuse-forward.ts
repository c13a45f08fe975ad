import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isLocalAddress } from './local-address.js';

/** The `x-harness-hint` of a refused forward: the rule, in one line. */
export const FORWARD_HINT = 'The server forwards calls no mock answers only to its --upstream origins (and a recording test\'s calls only off this machine), never to itself.';

/** What the standalone server may forward a call to. */
export interface ForwardRules {
  /** Origins whose unanswered calls are forwarded (`--upstream`), as `URL.origin` writes them. */
  upstreams: ReadonlySet<string>;
  /** The ports the server listens on: a local address on one of them is the server itself. */
  ownPorts: readonly number[];
}

/** Why a call is not forwarded, and what to do instead (a clause: "Add a mock for it, or <remedy>."). */
export interface Refusal {
  reason: string;
  remedy: string;
}

/** The addresses a connection to `hostname` would go to; none when it does not resolve (the forward then fails on its own). */
async function addressesOf(hostname: string): Promise<string[]> {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) !== 0) return [bare];
  try {
    return (await lookup(bare, { all: true })).map(({ address }) => address);
  } catch {
    return [];
  }
}

function portOf(url: URL): number {
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}

/**
 * Why the standalone server must not forward a call to `url`, or `undefined` when it may.
 * @note Calls it receives come from anyone who reaches its port, so forwarding is an
 * allowlist, not a blocklist of loopback spellings: a call no mock answers goes only to a
 * configured upstream (`--upstream`), and a recording test's calls go only to hosts off this
 * machine (its sidecars listen there). Never to the server itself, even when configured: a
 * path that nests its own address would make it call itself once per level (issue 23).
 * The host is resolved here only to compare addresses: the URL parser already turned
 * `2130706433`, `0x7f000001` and `127.1` into 127.0.0.1, and DNS names are looked up.
 */
export async function refuseForward(url: URL, rules: ForwardRules, purpose: 'unanswered' | 'recording'): Promise<Refusal | undefined> {
  const upstream = rules.upstreams.has(url.origin);
  if (purpose === 'unanswered' && !upstream) {
    return { reason: `${url.origin} is not one of its upstreams`, remedy: `serve it with --upstream ${url.origin}=0 to forward such calls there` };
  }
  const port = portOf(url);
  // Configured upstreams are the operator's choice: resolve them only when they might be this server.
  if (upstream && !rules.ownPorts.includes(port)) return undefined;
  const local = (await addressesOf(url.hostname)).some(isLocalAddress);
  if (local && rules.ownPorts.includes(port)) return { reason: `${url.host} is this server itself`, remedy: 'point the upstream at the real service, not at this server' };
  if (local && purpose === 'recording') return { reason: `${url.host} is an address of this machine, which a recording never calls`, remedy: 'record calls to a real provider, off this machine' };
  return undefined;
}

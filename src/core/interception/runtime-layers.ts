/**
 * Which interception layers the runtime the app runs on gets. The one place that knows what a
 * runtime offers: Node's fetch is its bundled undici, so the global dispatcher slot catches
 * every way into it; Bun's and Deno's fetch are their own (neither reads undici's slot), so they
 * get the fetch patch and what their node:http allows, and the start-up line names the rest.
 */
export interface RuntimeLayers {
  /** The runtime and its version, for messages: `Node.js 24.21.0`, `Bun 1.4.5`, `Deno 2.9.6`. */
  name: string;
  /** Fetch is Node's bundled undici: install the harness's global dispatcher and pass calls on through the one that was there. */
  undiciDispatcher: boolean;
  /** Worker threads read `--import` from NODE_OPTIONS/execArgv, so each can be given the socket guard. */
  workerGuard: boolean;
  /**
   * How node:http/https calls are intercepted: `sockets` by the interception library, which works
   * on Node's own socket handles; `loopback` (Bun, Deno: no such handles) by sending each call to
   * a server of the harness on 127.0.0.1 (node-http-via-loopback.ts).
   */
  nodeHttp: 'sockets' | 'loopback';
  /** What the harness cannot intercept on this runtime, each with why: named in the start-up line. */
  notIntercepted: string[];
}

interface RuntimeVersions {
  bun?: string;
  deno?: string;
  node?: string;
}

/** The layers for the runtime with these `process.versions` (Bun and Deno add their own name to them). */
export function runtimeLayersFor(versions: RuntimeVersions): RuntimeLayers {
  const other = versions.bun !== undefined ? `Bun ${versions.bun}` : versions.deno !== undefined ? `Deno ${versions.deno}` : undefined;
  if (other === undefined) return { name: `Node.js ${versions.node ?? 'unknown'}`, undiciDispatcher: true, workerGuard: true, nodeHttp: 'sockets', notIntercepted: [] };
  const runtime = other.split(' ')[0]!;
  return {
    name: other,
    undiciDispatcher: false,
    workerGuard: false,
    nodeHttp: 'loopback',
    notIntercepted: [
      `fetch references taken before harness.start() (${runtime}'s fetch is not undici, so there is no global dispatcher to catch them; start the harness before the app's modules load)`,
      `the undici package's own dispatchers (same reason)`,
      `calls from worker threads (${runtime} does not load --import modules into them)`,
      `HTTP Upgrade requests made with node:http (the ws package): they go out as made, unjournaled`,
    ],
  };
}

/** The layers for the runtime this process runs on. */
export function runtimeLayers(): RuntimeLayers {
  return runtimeLayersFor(process.versions as RuntimeVersions);
}

import { DEFAULT_ENDPOINTS, HARNESS_TOKEN_ENV } from '../core/constants.js';
import type { ContractsOptions, ContractViolationStrategy } from '../core/contract-check.js';
import { consoleLogger, quote } from '../core/dev-utils.js';
import { isLoopback } from '../core/is-loopback.js';
import { redactUrl } from '../core/redact-url.js';
import type { HarnessEndpoints } from '../core/types.js';
import { loadScenarios } from '../files/load-scenarios.js';
import { openRedisStore, type OpenedRedisStore } from '../server/open-redis-store.js';
import { createStandaloneServer, HEALTH_PATH, type UpstreamPort } from '../server/standalone-server.js';
import { watchFiles } from '../server/watch-files.js';
import { info } from './_output.js';
import { defineCommand, UsageError } from './command.js';
import { serveAccess } from './serve-access.js';
import { ALLOWED_HOSTS_ENV, serveControl } from './serve-control.js';

const UNHANDLED = ['bypass', 'warn', 'error'] as const;
type Unhandled = (typeof UNHANDLED)[number];
/** `--on-contract-violation`: the values of `createHarness({ contracts: { onViolation } })`. */
const ON_CONTRACT_VIOLATION = ['warn', 'error'] as const satisfies readonly ContractViolationStrategy[];

function parsePort(value: string, flag: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`Expected ${flag} to be a port number from 0 to 65535 (0 picks a free one), instead got ${quote(value)}.`);
  return port;
}

/** `https://api.stripe.com=9401` → the origin and its port. */
function parseUpstream(value: string): UpstreamPort {
  const equals = value.lastIndexOf('=');
  const example = 'Write it as <origin>=<port>: --upstream https://api.stripe.com=9401';
  if (equals === -1) throw new UsageError(`Expected --upstream to be <origin>=<port>, instead got ${quote(value)}. ${example}`);
  let url: URL;
  try {
    url = new URL(value.slice(0, equals));
  } catch {
    throw new UsageError(`Expected --upstream to start with an origin such as https://api.stripe.com, instead got ${quote(value.slice(0, equals))}. ${example}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search !== '' || url.hash !== '' || url.username !== '') {
    throw new UsageError(`Expected --upstream to name an http(s) origin only (scheme, host, optional port; no path), instead got ${quote(value.slice(0, equals))}. ${example}`);
  }
  return { origin: url.origin, port: parsePort(value.slice(equals + 1), `the port of --upstream ${url.origin}`) };
}

/** `setScenario=/__switch__` → one endpoint path; the harness checks the path itself. */
function parseEndpoint(value: string): [keyof HarnessEndpoints, string] {
  const names = Object.keys(DEFAULT_ENDPOINTS);
  const equals = value.indexOf('=');
  const name = value.slice(0, equals);
  if (equals === -1 || !names.includes(name)) {
    throw new UsageError(`Expected --endpoint to be <name>=<path> with a name among ${names.join(', ')}, instead got ${quote(value)}. Example: --endpoint setScenario=/__switch__`);
  }
  return [name as keyof HarnessEndpoints, value.slice(equals + 1)];
}

/** `--openapi`, `--on-contract-violation` and `--allow-refs-outside` → `createHarness`'s `contracts`; `undefined` without documents. */
function parseContracts(documents: readonly string[] | undefined, mode: string | undefined, allowRefsOutside: boolean): (ContractsOptions & { openapi: string[] }) | undefined {
  if (mode !== undefined && !(ON_CONTRACT_VIOLATION as readonly string[]).includes(mode)) {
    throw new UsageError(`Expected --on-contract-violation to be warn or error, instead got ${quote(mode)}. warn answers the call and logs each problem once; error answers 502 naming the violations.`);
  }
  if (documents === undefined || documents.length === 0) {
    if (mode !== undefined) throw new UsageError('--on-contract-violation needs the API documents to check against: add --openapi <doc>, e.g. --openapi specs/payments.yaml --on-contract-violation error.');
    if (allowRefsOutside) throw new UsageError('--allow-refs-outside is about the $refs of --openapi documents: add --openapi <doc>, or leave it out.');
    return undefined;
  }
  return { openapi: [...documents], onViolation: (mode ?? 'warn') as ContractViolationStrategy, ...(allowRefsOutside ? { allowRefsOutside } : {}) };
}

/** Resolves on the first SIGINT or SIGTERM; a second one while stopping ends the process at once. */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
      process.once('SIGINT', () => process.exit(130)).once('SIGTERM', () => process.exit(143));
      resolve(signal);
    };
    process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  });
}

export const serveCommand = defineCommand({
  name: 'serve',
  args: '[options] <files…>',
  summary: 'Run the standalone mock server (any language, per-test isolation)',
  description: [
    'Serves the scenarios in the given files over HTTP, with the same engine, control API and',
    'session stores as the embedded library, so services in any language can be tested with',
    'per-test scenarios (the x-harness-test-id header, or the W3C baggage member harness-test-id).',
    '',
    'Two ways in, without TLS: the upstream in the path (GET http://127.0.0.1:9400/https/api.stripe.com/v1/charges',
    'is answered as https://api.stripe.com/v1/charges), or a port per upstream (--upstream).',
    'A call no mock answers is forwarded only to an --upstream origin, never to another host',
    'on loopback nor to the server itself: anything else is answered 502.',
    `Health: GET ${HEALTH_PATH}. Stop with Ctrl+C (SIGINT) or SIGTERM: calls in flight finish first.`,
  ].join('\n'),
  options: {
    port: { type: 'string', short: 'p', value: '<port>', description: 'Port of the server (0 picks a free one)', default: '9400' },
    host: { type: 'string', value: '<host>', description: 'Address to listen on; 0.0.0.0 for every interface (in a container)', default: '127.0.0.1' },
    upstream: { type: 'string', multiple: true, value: '<origin>=<port>', description: 'Serve an upstream on a port of its own, and forward to it what no mock answers: --upstream https://api.stripe.com=9401' },
    unhandled: { type: 'string', value: '<mode>', description: 'A call no mock answers: bypass (forward it to its --upstream), warn (the same, and log it), error (502)', default: 'warn' },
    redis: { type: 'string', value: '<url>', description: 'Keep sessions in Redis, shared with embedded harnesses (needs the redis or ioredis package)' },
    'redis-prefix': { type: 'string', value: '<prefix>', description: 'Key prefix in Redis; the same as the embedded harnesses use', default: 'scenario-harness:' },
    endpoint: { type: 'string', multiple: true, value: '<name>=<path>', description: `A control endpoint path: ${Object.keys(DEFAULT_ENDPOINTS).join(', ')}` },
    openapi: {
      type: 'string',
      multiple: true,
      value: '<doc>',
      description: 'Check each answered call under the servers of this OpenAPI 3.0/3.1 or Swagger 2 document (JSON or YAML), as createHarness({ contracts }) does; one per provider. The journal lists each call\'s contractViolations',
    },
    'on-contract-violation': { type: 'string', value: '<mode>', description: 'A call that breaks its --openapi document: warn (answer it, log each problem once), error (answer 502 naming the violations)', default: 'warn' },
    'allow-refs-outside': { type: 'boolean', description: 'Let the $refs of --openapi documents read local files outside the document\'s folder (their content can show in answers and the journal)' },
    watch: { type: 'boolean', short: 'w', description: 'Reload the files when they change; an invalid edit is refused and the last good set kept' },
    token: { type: 'string', value: '<token>', description: 'Require "Authorization: Bearer <token>" on the control endpoints (at least 16 characters); prefer the HARNESS_TOKEN environment variable' },
    'allowed-host': {
      type: 'string',
      multiple: true,
      value: '<name>',
      description: `A Host name the control endpoints answer besides loopback and IP addresses (the name tests reach the server by, e.g. a Compose service); * for any. Also ${ALLOWED_HOSTS_ENV}, comma-separated`,
    },
    'allow-cross-site': { type: 'boolean', description: 'Answer control requests that browsers send from pages on other sites (refused by default)' },
    'insecure-no-token': { type: 'boolean', description: 'Listen beyond loopback (--host 0.0.0.0) without a token: anyone who reaches the server can switch scenarios and read recorded bodies' },
  },
  examples: [
    'scenario-harness serve scenarios/payments.yaml',
    'scenario-harness serve --port 9400 --upstream https://api.stripe.com=9401 --watch scenarios/*.yaml',
    'scenario-harness serve --openapi specs/payments.yaml --on-contract-violation error scenarios/payments.yaml',
    'HARNESS_TOKEN=$(openssl rand -hex 32) scenario-harness serve --host 0.0.0.0 --redis redis://redis:6379 --unhandled error scenarios/*.json',
  ],
  async run({ values, positionals: files }) {
    if (files.length === 0) throw new UsageError('Which scenario files? Give one or more: scenario-harness serve scenarios/payments.yaml');
    const port = parsePort(values.port ?? '9400', '--port');
    const host = values.host ?? '127.0.0.1';
    const unhandled = (values.unhandled ?? 'warn') as Unhandled;
    if (!UNHANDLED.includes(unhandled)) throw new UsageError(`Expected --unhandled to be bypass, warn or error, instead got ${quote(unhandled)}.`);
    const upstreams = (values.upstream ?? []).map(parseUpstream);
    const seen = new Map<string, string>([[String(port), '--port']]);
    for (const { origin, port: upstreamPort } of upstreams) {
      const clash = upstreamPort === 0 ? undefined : seen.get(String(upstreamPort));
      if (clash !== undefined) throw new UsageError(`Port ${upstreamPort} is given twice (${clash} and --upstream ${origin}); each upstream needs a port of its own.`);
      if (seen.has(origin)) throw new UsageError(`--upstream ${origin} is given twice.`);
      seen.set(String(upstreamPort), `--upstream ${origin}`).set(origin, origin);
    }
    const endpoints: HarnessEndpoints = Object.fromEntries((values.endpoint ?? []).map(parseEndpoint));
    const contracts = parseContracts(values.openapi, values['on-contract-violation'], values['allow-refs-outside'] === true);
    // Before anything is loaded or bound: an exposed server without a token is refused (exit 2).
    const access = serveAccess({ host, token: values.token, envToken: process.env[HARNESS_TOKEN_ENV], insecureNoToken: values['insecure-no-token'] === true });
    const control = serveControl({ host, allowedHosts: values['allowed-host'], envAllowedHosts: process.env[ALLOWED_HOSTS_ENV], allowCrossSite: values['allow-cross-site'] === true });

    const scenarios = await loadScenarios(...files);
    let redis: OpenedRedisStore | undefined;
    if (values.redis !== undefined) {
      redis = await openRedisStore({ url: values.redis, prefix: values['redis-prefix'], onError: (message) => consoleLogger.error(message) });
    }
    const server = createStandaloneServer({
      scenarios,
      host,
      port,
      upstreams,
      unhandled,
      endpoints,
      ...(contracts === undefined ? {} : { contracts }),
      ...(access === undefined ? {} : { access }),
      ...(control === undefined ? {} : { control }),
      ...(redis ? { store: redis.store, health: async () => (await redis.ping(), { store: 'redis' }) } : { health: async () => ({ store: 'memory' }) }),
    });
    try {
      await server.listen();
    } catch (error) {
      await redis?.close();
      throw error;
    }
    const signal = stopSignal();

    // The start-up line lands in CI logs: the URL's password is not part of it.
    const store = redis ? `redis at ${redactUrl(values.redis!)} (${redis.client})` : 'memory';
    info(`Serving ${server.scenarioCount} scenarios from ${files.join(', ')} at ${server.url} (unhandled: ${unhandled}, store: ${store})`);
    info(`  host in the path: ${server.url}/https/api.example.com/v1/x is answered as https://api.example.com/v1/x`);
    for (const upstream of server.upstreams) info(`  ${upstream.origin} → ${upstream.url}`);
    if (contracts !== undefined) info(`  contracts: each answered call is checked against ${contracts.openapi.join(', ')} (on violation: ${contracts.onViolation}), and each llm answer against its request's schemas; the journal lists its contractViolations.`);
    // Every endpoint but the sockets': the server answers HTTP calls only, so no socket is ever open here.
    const { sockets: _noSockets, ...paths } = { ...DEFAULT_ENDPOINTS, ...endpoints };
    info(`  control: ${[...new Set(Object.values(paths))].join(', ')}; health: ${HEALTH_PATH}`);
    if (access !== undefined) info(`  the control endpoints require "Authorization: Bearer <token>" (${values.token === undefined ? HARNESS_TOKEN_ENV : '--token'}); the calls of the services under test do not.`);
    else if (!isLoopback(host)) {
      // Tests in other containers reach the server by a name (a Compose service): say which names it answers.
      const names = control?.allowedHosts === '*' ? 'any Host' : `loopback, IP addresses${control?.allowedHosts === undefined ? '' : ` and ${control.allowedHosts.join(', ')}`}`;
      info(`  the control endpoints answer requests addressed to ${names}; tests that reach this server by another name need --allowed-host <name> (or ${ALLOWED_HOSTS_ENV}).`);
      consoleLogger.warn(`Listening on ${host}, beyond this machine, without a token (--insecure-no-token): anyone who reaches it can switch scenarios, read test state and the recorded request bodies. Keep it on a private network.`);
    }

    let watcher: { close(): void } | undefined;
    if (values.watch === true) {
      let reloading = Promise.resolve();
      const reload = async () => {
        try {
          await server.reload(await loadScenarios(...files));
          info(`Reloaded ${server.scenarioCount} scenarios from ${files.join(', ')}.`);
        } catch (error) {
          consoleLogger.error(`Kept the last good scenarios (${server.scenarioCount}): the changed files are invalid.\n${(error as Error).message}`);
        }
      };
      watcher = watchFiles(files, () => (reloading = reloading.then(reload)));
      info('  watching the files: a change reloads them.');
    }
    info('Press Ctrl+C to stop.');

    const received = await signal;
    info(`${received}: stopping (calls in flight finish first)…`);
    watcher?.close();
    await server.close();
    await redis?.close();
    info('Stopped.');
    return 0;
  },
});

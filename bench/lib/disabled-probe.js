// Child process (bench/compare-builds.js): what a disabled app loads from one build.
//   node bench/lib/disabled-probe.js <main.js of a staged build>
// The approach of test/disabled (a module hook records every module the process loads), in-thread
// with module.registerHooks: its load hook runs once per module actually loaded, ESM and CommonJS
// alike. It imports the package's main entry by its published name (the staged main.js), calls
// createHarness({ enabled: false, … }), then start() and stop(), and prints one JSON line:
//   { afterImport, afterCreate, afterStart }   the URLs loaded by then, in load order
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const loaded = [];
registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});

const [main] = process.argv.slice(2);
const { createHarness } = await import(pathToFileURL(main).href);
const afterImport = [...loaded];
const harness = createHarness({ enabled: false, scenarios: { default: { name: 'd', mocks: [] } } });
const afterCreate = [...loaded];
await harness.start();
await harness.stop();
process.stdout.write(`${JSON.stringify({ afterImport, afterCreate, afterStart: [...loaded] })}\n`);

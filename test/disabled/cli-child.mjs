// Started by enabled-false.test.ts: runs the built CLI's `import openapi` (or, with CHECK set, its
// `check`) and reports what it loaded, proving the probe sees the parsers and validators when they do load.
import { register } from 'node:module';
register('./record-loads.mjs', import.meta.url);

const { main } = await import('../../dist/cli/main.js');
process.exitCode = await main(process.env.CHECK ? ['check', '--openapi', process.env.SPEC, process.env.CHECK] : ['import', 'openapi', process.env.SPEC, '--out', process.env.OUT]);

// Started by enabled-false.test.ts: runs the built CLI's `import openapi` and reports what it loaded,
// proving the probe sees the OpenAPI parsers when they do load.
import { register } from 'node:module';
register('./record-loads.mjs', import.meta.url);

const { main } = await import('../../dist/cli/main.js');
process.exitCode = await main(['import', 'openapi', process.env.SPEC, '--out', process.env.OUT]);

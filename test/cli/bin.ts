// The CLI as bin/scenario-harness.js runs it, on the sources: tests spawn this file with tsx.
import { main } from '../../src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));

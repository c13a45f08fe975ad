#!/usr/bin/env node
// The package's bin: `npx scenario-harness <command>`. Everything lives in dist/cli/main.js.
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));

import type { CliCommand } from './command.js';
import { checkCommand } from './check.js';
import { recordCommand } from './record.js';
import { importCommand } from './import.js';
import { serveCommand } from './serve.js';
import { validateCommand } from './validate.js';

/** Every command of the CLI, in the order help lists them. A new command: its file, and one line here. */
export const COMMANDS: readonly CliCommand[] = [validateCommand, checkCommand, serveCommand, recordCommand, importCommand];

/**
 * @module
 * The `scenario-harness` command line: `main(argv)` runs one command and resolves with its
 * exit code. The package's bin (bin/scenario-harness.js) calls it.
 */
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isHarnessError } from '../core/errors.js';
import { unsupportedNodeReason } from '../core/supported-runtime.js';
import { print, problem } from './_output.js';
import { UsageError, type CliCommand } from './command.js';
import { COMMANDS } from './commands.js';
import { BIN, commandHelp, mainHelp } from './help.js';

/** Exit codes: 0 done, 1 the command failed (invalid files, a server that could not start), 2 a wrong invocation. */
const FAILED = 1;
const USAGE = 2;

function version(): string {
  // src/cli/ and dist/cli/ both sit two levels below the package root.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

function usageError(message: string, command?: CliCommand): number {
  problem(`${message}\nRun "${BIN} ${command ? `${command.name} ` : ''}--help" for ${command ? 'its options' : 'the commands'}.`);
  return USAGE;
}

/** parseArgs's own messages, said in our words. */
function explainParseError(error: Error & { code?: string }, command: CliCommand): string {
  const flag = /'(-[^']*)'/.exec(error.message)?.[1] ?? '';
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Unknown option ${flag} for "${command.name}".`;
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // parseArgs writes the flag as '-p, --port <value>' or '--watch'.
    const long = /--[\w-]+/.exec(flag)?.[0] ?? flag;
    return error.message.includes('argument missing') ? `The option ${long} needs a value.` : `The option ${long} takes no value.`;
  }
  return error.message;
}

async function runCommand(command: CliCommand, args: readonly string[]): Promise<number> {
  const options: ParseArgsConfig['options'] = { help: { type: 'boolean', short: 'h' } };
  for (const [name, option] of Object.entries(command.options)) {
    options[name] = { type: option.type, ...(option.short ? { short: option.short } : {}), ...(option.multiple ? { multiple: true } : {}) };
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    return usageError(explainParseError(error as Error, command), command);
  }
  const { help, ...values } = parsed.values;
  if (help === true) {
    print(commandHelp(command));
    return 0;
  }
  try {
    return await command.run({ values: values as Record<string, never>, positionals: parsed.positionals });
  } catch (error) {
    if (error instanceof UsageError) return usageError(error.message, command);
    // Our own errors and the server's start-up errors say what to do; anything else is a bug, with its stack.
    problem(isHarnessError(error) || (error instanceof Error && error.message.startsWith('Failed to')) ? (error as Error).message : String((error as Error)?.stack ?? error));
    return FAILED;
  }
}

/**
 * Run the CLI with `argv` (the arguments after the program name) and resolve with the exit code.
 *
 * @example
 * process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: readonly string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    problem(`Which command?\n\n${mainHelp(COMMANDS)}`);
    return USAGE;
  }
  if (first === '-h' || first === '--help') {
    print(mainHelp(COMMANDS));
    return 0;
  }
  if (first === '-v' || first === '--version') {
    print(version());
    return 0;
  }
  if (first === 'help') {
    const command = COMMANDS.find(({ name }) => name === rest[0]);
    if (rest[0] !== undefined && command === undefined) return usageError(`Unknown command "${rest[0]}". Commands: ${COMMANDS.map(({ name }) => name).join(', ')}.`);
    print(command ? commandHelp(command) : mainHelp(COMMANDS));
    return 0;
  }
  if (first.startsWith('-')) return usageError(`Unknown option ${first}. Options before a command: --help, --version.`);
  const command = COMMANDS.find(({ name }) => name === first);
  if (command === undefined) {
    const near = COMMANDS.filter(({ name }) => name.startsWith(first.slice(0, 2)));
    const hint = near.length > 0 ? ` Did you mean ${near.map(({ name }) => `"${name}"`).join(' or ')}?` : '';
    return usageError(`Unknown command "${first}".${hint} Commands: ${COMMANDS.map(({ name }) => name).join(', ')}.`);
  }
  const unsupported = unsupportedNodeReason();
  if (unsupported !== undefined) {
    problem(unsupported);
    return FAILED;
  }
  return runCommand(command, rest);
}

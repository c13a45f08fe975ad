import type { CliCommand } from './command.js';

export const BIN = 'scenario-harness';
const DOCS = 'https://github.com/scenario-harness/scenario-harness/tree/main/docs';

/** Two columns, the second aligned. */
function columns(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`.trimEnd());
}

/** `scenario-harness --help`. */
export function mainHelp(commands: readonly CliCommand[]): string {
  return [
    `Usage: ${BIN} <command> [options]`,
    '',
    'Commands:',
    ...columns(commands.map((command) => [`${command.name} ${command.args}`.trim(), command.summary])),
    '',
    'Options:',
    ...columns([
      ['-h, --help', `Show help; after a command, that command's (${BIN} serve --help)`],
      ['-v, --version', 'Print the version'],
    ]),
    '',
    `Docs: ${DOCS}`,
    '',
  ].join('\n');
}

/** `scenario-harness <command> --help`. */
export function commandHelp(command: CliCommand): string {
  const options: [string, string][] = Object.entries(command.options).map(([name, option]) => {
    const flag = `${option.short ? `-${option.short}, ` : '    '}--${name}${option.value ? ` ${option.value}` : ''}`;
    const notes = [option.multiple ? 'repeatable' : '', option.default !== undefined ? `default: ${option.default}` : ''].filter(Boolean).join('; ');
    return [flag, `${option.description}${notes ? ` (${notes})` : ''}`];
  });
  options.push(['-h, --help', 'Show this help']);
  return [
    `Usage: ${BIN} ${command.name} ${command.args}`.trimEnd(),
    '',
    command.description,
    '',
    'Options:',
    ...columns(options),
    '',
    'Examples:',
    ...command.examples.map((example) => `  ${example}`),
    '',
  ].join('\n');
}

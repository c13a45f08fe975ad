/** One flag of a command, as `node:util` parseArgs takes it, plus what help prints. */
export interface CliOption {
  type: 'string' | 'boolean';
  short?: string;
  /** The flag may be given several times; its value is then a list. */
  multiple?: boolean;
  /** The value's name in help: `<port>`. */
  value?: string;
  description: string;
  /** Shown in help as `(default: …)`; the command applies it. */
  default?: string;
}

/** The parsed value of one option: a boolean flag, a string, or a list of strings. */
type OptionValue<O extends CliOption> = O['type'] extends 'boolean' ? boolean : O['multiple'] extends true ? string[] : string;

/** What a command's `run` receives. Options left out are `undefined`. */
export interface CommandInput<Options extends Record<string, CliOption>> {
  values: { [K in keyof Options]?: OptionValue<Options[K]> };
  positionals: string[];
}

/** A command of the `scenario-harness` CLI: one file in src/cli/, one line in commands.ts. */
export interface CliCommand<Options extends Record<string, CliOption> = Record<string, CliOption>> {
  name: string;
  /** What follows the name in the usage line: `<files…>`. */
  args: string;
  /** One line, for the list of commands. */
  summary: string;
  /** What the command does, for its `--help`. */
  description: string;
  options: Options;
  examples: string[];
  /**
   * Resolves with the exit code. Throw `UsageError` for a wrong invocation, any other error for a failure.
   * @note Every command's file is loaded for `--help`: load heavy parsers inside `run` with `import()`.
   */
  run(input: CommandInput<Options>): Promise<number>;
}

/** Declare a command with its option types inferred from `options`. */
export function defineCommand<const Options extends Record<string, CliOption>>(command: CliCommand<Options>): CliCommand {
  return command as unknown as CliCommand;
}

/** A wrong invocation (missing argument, bad flag value): exit code 2 and a pointer to `--help`. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Following a guide word for word, as a newcomer would: the commands and files come from the
 * Markdown itself (the blocks marked `<!-- step: … -->` and `<!-- file: … -->`), run in a fresh
 * folder outside the repository, against the packed tarball.
 *
 * The only liberties taken, each visible here:
 * - `npm install … scenario-harness …` installs the packed tarball in place of the registry's
 *   `scenario-harness`;
 * - npm runs offline-first (`npm_config_prefer_offline`), without audit, fund or update notices;
 * - the app listens on a free port (`PORT`, which the documented files read, default 3000), and
 *   the documented curl commands are sent to that port instead of 3000;
 * - `<!-- step: browser -->` (Playwright's browser download) is not run: a system Chromium is
 *   used instead, the way the Playwright guide describes (`PLAYWRIGHT_CHROMIUM_PATH`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { ROOT, type CodeBlock } from '../docs/markdown.js';
import { freePort } from '../support/free-port.js';

export { freePort };

export interface Walkthrough {
  /** Commands run one after another in the app's folder (`<!-- step: setup -->`). */
  setup: string[];
  /** Files to create: their path in the app's folder and their content. */
  files: { path: string; content: string }[];
  /** The command that starts the app (`<!-- step: start -->`). */
  start?: string;
  /** Lines the app prints once it is up (`<!-- step: output -->`). */
  output: string[];
  /** Commands and the output documented for them in a trailing `# comment` (`<!-- step: check -->`). */
  checks: { command: string; expected: string }[];
  /** Commands that must succeed (`<!-- step: run -->`). */
  run: string[];
  /** Commands that download a browser (`<!-- step: browser -->`); never run here. */
  browser: string[];
}

/** Shell lines of a block, with `\` continuations joined; blank lines and whole-line comments dropped. */
export function shellLines(body: string): string[] {
  return body
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * The walkthrough in `blocks`. Files are shown as `<!-- file: <exampleDir>/<path> -->` and
 * created at `<path>` in the app's folder. Every shell block must be a marked step, so a
 * command the docs add cannot escape the test.
 */
export function walkthrough(blocks: CodeBlock[], exampleDir: string): Walkthrough {
  const result: Walkthrough = { setup: [], files: [], output: [], checks: [], run: [], browser: [] };
  for (const block of blocks) {
    if (block.file !== undefined) {
      if (!block.file.startsWith(`${exampleDir}/`)) throw new Error(`Line ${block.line}: ${block.file} is not under ${exampleDir}/.`);
      result.files.push({ path: relative(exampleDir, block.file), content: block.body });
      continue;
    }
    if (block.step === undefined) {
      if (['sh', 'bash', 'shell', 'console'].includes(block.lang)) throw new Error(`Line ${block.line}: a shell block without a <!-- step: … --> marker.`);
      continue;
    }
    const lines = shellLines(block.body);
    switch (block.step) {
      case 'setup':
      case 'run':
      case 'browser':
        result[block.step].push(...lines);
        break;
      case 'start':
        if (lines.length !== 1 || result.start !== undefined) throw new Error(`Line ${block.line}: expected the one command that starts the app.`);
        result.start = lines[0];
        break;
      case 'output':
        result.output.push(...block.body.split('\n').filter((line) => line !== ''));
        break;
      case 'check':
        for (const line of lines) {
          const match = /^(.*?)\s+#\s(.*)$/.exec(line);
          if (match === null) throw new Error(`Line ${block.line}: "${line}" documents no output (a trailing "# …" comment).`);
          result.checks.push({ command: match[1]!, expected: match[2]!.trim() });
        }
        break;
    }
  }
  return result;
}

/** The environment of a newcomer's shell: ours, without what `npm test` and vitest add, npm offline-first. */
export function newcomerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|NODE_ENV$|INIT_CWD$|NODE_OPTIONS$|TSX_)/i.test(name)) continue;
    env[name] = value;
  }
  // The repository's node_modules/.bin (on PATH under `npm test`) is not the newcomer's.
  env.PATH = (process.env.PATH ?? '')
    .split(':')
    .filter((dir) => !dir.includes(`${join('node_modules', '.bin')}`))
    .join(':');
  return {
    ...env,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    NEXT_TELEMETRY_DISABLED: '1',
    ...extra,
  };
}

/** Run a shell command to its end; rejects with its output when it fails. */
export function sh(command: string, options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-c', command], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve({ stdout, stderr }) : reject(new Error(`\`${command}\` exited with ${code}.\n--- stdout\n${stdout.slice(-6000)}\n--- stderr\n${stderr.slice(-6000)}`)),
    );
  });
}

/** The packed tarball of the current build (`npm pack`), written to `dir`. */
export async function packTarball(dir: string): Promise<string> {
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('No dist/ to pack: run `npm run build` first (`npm test` does).');
  const { stdout } = await sh(`npm pack --pack-destination ${JSON.stringify(dir)} --json`, { cwd: ROOT, env: newcomerEnv() });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  return join(dir, filename);
}

/** `npm install … scenario-harness …` with the tarball in place of the registry's package; every other command as written. */
export function withTarball(command: string, tarball: string): string {
  if (!/^npm (install|i|add)\b/.test(command)) return command;
  return command.replace(/(^|\s)scenario-harness(?=\s|$)/, `$1${tarball}`);
}

/** Create the walkthrough's files in `dir`. */
export function writeFiles(dir: string, files: Walkthrough['files']): void {
  for (const file of files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.content);
  }
}

/** The documented port (3000) replaced by the one the test uses. */
export const onPort = (text: string, port: number): string => text.replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`).replaceAll('localhost:3000', `localhost:${port}`);

export interface RunningApp {
  output(): string;
  stop(): Promise<void>;
}

/**
 * Start the app with the documented command and wait, without a timer, until it printed every
 * `expected` line; rejects with its output if it exits first.
 */
export async function startApp(command: string, expected: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<RunningApp> {
  // Its own process group, so stopping it stops npx and the node process under it too.
  const child: ChildProcess = spawn('bash', ['-c', command], { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const kill = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', kill);
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (expected.every((line) => output.includes(line))) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', reject);
    void exited.then(() => reject(new Error(`\`${command}\` exited before it printed ${JSON.stringify(expected)}:\n${output}`)));
  });
  return {
    output: () => output,
    stop: async () => {
      process.off('exit', kill);
      kill();
      await exited;
    },
  };
}

/** The repository's TypeScript compiler checks `files` in `dir` the way a strict NodeNext project would. */
export async function typecheck(dir: string, files: string[]): Promise<void> {
  const config = {
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
    files,
  };
  writeFileSync(join(dir, 'tsconfig.typecheck.json'), JSON.stringify(config));
  await sh(`${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'))} -p tsconfig.typecheck.json`, { cwd: dir, env: newcomerEnv() });
}

/** A walkthrough followed in a fresh folder: the packed tarball installed by its setup commands, its files written, its app started. */
export interface FollowedWalkthrough {
  /** The newcomer's project folder. */
  folder: string;
  /** The port the app listens on (the docs' 3000, moved to a free one). */
  port: number;
  app: RunningApp;
  /** Stop the app and remove the folder. */
  cleanUp(): Promise<void>;
}

/**
 * Follow `guide` word for word: pack the tarball, run the setup commands in a new folder (named
 * after `prefix`), write the files, and start the app with its start command, waiting for the
 * output the guide shows.
 */
export async function followWalkthrough(guide: Walkthrough, prefix: string): Promise<FollowedWalkthrough> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const folder = join(work, 'my-app');
  const tarball = await packTarball(work);
  mkdirSync(folder);
  for (const command of guide.setup) await sh(withTarball(command, tarball), { cwd: folder, env: newcomerEnv() });
  writeFiles(folder, guide.files);
  const port = await freePort();
  const app = await startApp(guide.start!, guide.output.map((line) => onPort(line, port)), { cwd: folder, env: newcomerEnv({ PORT: String(port) }) });
  return {
    folder,
    port,
    app,
    cleanUp: async () => {
      await app.stop();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

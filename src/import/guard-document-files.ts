import { readFile, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureExpansion, type Expansion } from './measure-expansion.js';

/**
 * How many values YAML aliases may add to a document once expanded (as the OpenAPI parser
 * expands them, walking every path). A document that writes its shared parts once under
 * `components` and `$ref`s them adds none; a "billion laughs" of 600 bytes adds millions.
 */
export const MAX_ALIAS_EXPANSION = 100_000;

export interface GuardDocumentFilesOptions {
  /** Let `$ref`s read local files outside the document's folder (`--allow-refs-outside`). */
  allowRefsOutside: boolean;
  /** Where a refused file's content would have gone: `Its content would be copied into the scenario file`. */
  consequence: string;
  /** How to read it anyway, for a document the user trusts: `pass --allow-refs-outside`. */
  allow: string;
}

/** The guard, and why it refused a file. */
export interface DocumentFilesGuard {
  /**
   * For @readme/openapi-parser's options (`resolve`): every local file the parser reads, the
   * document itself and each file a `$ref` names, file after file, is read through the guard.
   * @note The parser's types say `file?: boolean`, but it hands a resolver object on to
   * json-schema-ref-parser as it is; the tests of `check`, `serve`, `contracts` and `import
   * openapi` fail should a version stop doing so.
   */
  resolve: { file: never };
  /** Why the guard refused a file, if it did (the parser's own error then only says it could not read it): a clause for "Failed to read <document>: …". */
  refusal(): string | undefined;
}

const inside = (folder: string, path: string) => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/** `file:///a/b.yaml`, `/a/b%20c.yaml` or `b.yaml` (relative to the working directory), as the parser names a local file → a path. */
function pathOf(url: string): string {
  if (/^file:/i.test(url)) return fileURLToPath(url);
  return resolve(decodeURI(url.replace(/%(?![0-9A-Fa-f]{2})/g, '%25')));
}

/** A URL with a scheme (`https:`), not a file path (a Windows drive letter is a path). */
const hasScheme = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url) && !/^[a-z]:[\\/]/i.test(url);

/**
 * Why a parsed document (`name` in messages) is refused for what its shared nodes expand to, or
 * `undefined` when it is fine. `shared` names them: YAML aliases, or (a document given as an
 * object) objects used in several places.
 */
export function expansionProblem(name: string, { written, expanded, cyclic }: Expansion, shared = 'its YAML aliases'): string | undefined {
  if (cyclic) {
    return `${name} contains itself through ${shared} (a node inside the node it names), which never ends once expanded, so it is not read. Write the recursive part as a schema under components and point at it with $ref.`;
  }
  if (expanded - written <= MAX_ALIAS_EXPANSION) return undefined;
  const count = (n: number) => n.toLocaleString('en-US');
  return `${name} expands to ${count(expanded)} values through ${shared} (${count(written)} as written), and they may add at most ${count(MAX_ALIAS_EXPANSION)}, so it is taken for an alias bomb ("billion laughs") and not read. Write each shared part once, under components, and point at it with $ref.`;
}

/** What a local file's aliases expand to: plain JSON has none; YAML is parsed as the parser would, aliases kept shared. */
async function expansionOf(text: string): Promise<Expansion | undefined> {
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    // YAML, or not valid at all.
  }
  const { parseDocument } = await import('yaml');
  try {
    return measureExpansion(parseDocument(text).toJS({ maxAliasCount: -1 }));
  } catch {
    // Not YAML this parser reads: the OpenAPI parser reports the syntax.
    return undefined;
  }
}

/**
 * The rules for the local files an API document is read from, whatever reads it (`import
 * openapi`, `check --openapi`, `serve --openapi`, `createHarness({ contracts })`): `$ref`s may
 * name files inside the document's folder only (symbolic links followed), unless
 * `allowRefsOutside`, since a document could otherwise name a credentials file in the home folder
 * or `/etc/passwd`, and its content would land in a scenario file, a report, an answer or the
 * journal (issue 23, item 13; issue 37, item 8); and no file may expand past
 * `MAX_ALIAS_EXPANSION` through YAML aliases (issue 37, item 7). Remote (`https:`) refs are left
 * to the parser.
 * @note A resolver rather than a pass over the files before the parser reads them: that pass
 * read YAML with another parser, and a file it could not read (too many aliases for it) was
 * skipped, so its refs went unchecked while the parser followed them.
 */
export function guardDocumentFiles(documentPath: string, { allowRefsOutside, consequence, allow }: GuardDocumentFilesOptions): DocumentFilesGuard {
  const document = resolve(documentPath);
  const lexical = dirname(document);
  const folder = realpath(lexical).catch(() => lexical);
  let refusal: string | undefined;
  const refuse = (reason: string): never => {
    refusal ??= reason;
    throw new Error(reason);
  };
  const file = {
    order: 100,
    canRead: ({ url }: { url: string }) => !hasScheme(url) || /^file:/i.test(url),
    async read({ url }: { url: string }): Promise<Buffer> {
      const path = pathOf(url);
      // A file that does not exist is read as it is, for the parser to report.
      const target = await realpath(path).catch(() => path);
      const root = await folder;
      if (!allowRefsOutside && !inside(root, target)) {
        refuse(`a "$ref" in it (or in a file it references) names ${target}, a file outside the document's folder (${root}). ${consequence}, so it is not read. Move the referenced file next to the document, or ${allow} if you trust the document.`);
      }
      const bytes = await readFile(target);
      const expansion = await expansionOf(bytes.toString('utf8'));
      const problem = expansion && expansionProblem(path === document ? 'it' : target, expansion);
      if (problem !== undefined) refuse(problem);
      return bytes;
    },
  };
  return { resolve: { file: file as never }, refusal: () => refusal };
}

/**
 * What the docs tests read in the Markdown: fenced code blocks with the HTML comments that mark
 * them (`<!-- file: examples/x.ts -->`: the block is that file; `<!-- step: … -->`: a step a
 * newcomer runs), sections, links and heading anchors.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** The user-facing documents: README.md, CONTRIBUTING.md and every Markdown file under docs/. */
export function documents(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? under(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
    );
  return ['README.md', 'CONTRIBUTING.md', ...under('docs')].map((path) => relative(ROOT, join(ROOT, path)));
}

/** The kinds of step a newcomer test runs (see test/newcomer/follow-the-docs.ts). */
export type StepKind = 'setup' | 'start' | 'output' | 'check' | 'run' | 'browser';

export interface CodeBlock {
  lang: string;
  /** The block's text, every line ending in a newline (as a file on disk). */
  body: string;
  /** `<!-- file: path -->` right before the fence: the repository file the block shows. */
  file?: string;
  /** `<!-- step: kind -->` right before the fence. */
  step?: StepKind;
  /** 1-based line of the opening fence. */
  line: number;
}

const MARKER = /^<!-- (file|step): (\S+) -->$/;

/** Every fenced code block of `markdown`, in order, with the markers on the lines just above it. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (open === null) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    if (i === lines.length) throw new Error(`An unclosed code block at line ${start + 1}.`);
    const block: CodeBlock = { lang: open[1]!, body: body.map((line) => `${line}\n`).join(''), line: start + 1 };
    for (let j = start - 1; j >= 0; j--) {
      const marker = MARKER.exec(lines[j]!);
      if (marker === null) break;
      if (marker[1] === 'file') block.file = marker[2]!;
      else block.step = marker[2] as StepKind;
    }
    blocks.push(block);
  }
  return blocks;
}

/** The part of `markdown` under the heading `heading` (exact text after the #s), up to the next heading of the same or a higher level. */
export function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, '') === heading);
  if (start === -1) throw new Error(`No heading "${heading}".`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  let end = start + 1;
  let inFence = false;
  for (; end < lines.length; end++) {
    if (lines[end]!.startsWith('```')) inFence = !inFence;
    const match = /^(#+) /.exec(lines[end]!);
    if (!inFence && match !== null && match[1]!.length <= level) break;
  }
  return lines.slice(start, end).join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file's headings get on GitHub (a repeated heading gets `-1`, `-2`, …). */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    const match = inFence ? null : /^#{1,6} (.+)$/.exec(line);
    if (match === null) continue;
    const base = slug(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** The prose of a Markdown file: code blocks, inline code and HTML comments removed. */
export function prose(markdown: string): string {
  return markdown
    .replace(/^```[\s\S]*?^```$/gm, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/`[^`\n]*`/g, '');
}

/** `[text](target)` links outside code blocks. */
export function links(markdown: string): string[] {
  return [...markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

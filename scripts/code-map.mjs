#!/usr/bin/env node
/**
 * A map of where the code is heavy, counted from src/ (issue 39 asks for it before and after the
 * capabilities become parts): the longest functions, the files over 300 lines, and the imports
 * that run from a lower layer to a higher one.
 *
 *   node scripts/code-map.mjs            # the three lists, as text
 *   node scripts/code-map.mjs --json     # the same, for a script to compare
 *
 * A function's length is its lines from its first to its last, nested functions included (the
 * way a reader meets it). Test files are left out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const SRC = resolve(import.meta.dirname, '..', 'src');
const LONGEST = 10;
const FILE_LINES = 300;

/**
 * The layers, lowest first: a module may import from its own layer or below. The core stands
 * alone; capabilities plug into it; the entry points assemble them; adapters, the server and the
 * client use the assembled harness; register, the CLI and the Playwright fixture sit on top.
 */
const LAYERS = [
  ['core'],
  ['contracts', 'files', 'import', 'record', 'inspector', 'browser', 'redis', 'parts', 'edge'],
  ['harness.ts', 'harness-parts.ts', 'index.ts', 'index-edge.ts'],
  ['adapters', 'server', 'client'],
  ['register', 'cli', 'playwright'],
];

function layerOf(file) {
  const top = relative(SRC, file).split(sep)[0];
  const layer = LAYERS.findIndex((names) => names.includes(top));
  return layer === -1 ? undefined : layer;
}

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The name a reader would give a function: its own, its variable's, its property's or its class member's. */
function functionName(node) {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  return undefined;
}

function functionsOf(file, source) {
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const name = functionName(node);
      if (name !== undefined) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        found.push({ name, file: relative(SRC, file), line: first + 1, lines: last - first + 1 });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function upwardImports(file, source) {
  const from = layerOf(file);
  if (from === undefined) return [];
  const upward = [];
  const visit = (node) => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0] ?? node)
          ? node.arguments[0].text
          : undefined;
    if (specifier?.startsWith('.')) {
      const target = resolve(file, '..', specifier.replace(/\.js$/, '.ts'));
      const to = layerOf(target);
      if (to !== undefined && to > from) upward.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return upward;
}

const functions = [];
const longFiles = [];
const upward = [];
for (const file of sourceFiles(SRC)) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  functions.push(...functionsOf(file, source));
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > FILE_LINES) longFiles.push({ file: relative(SRC, file), lines });
  upward.push(...upwardImports(file, source));
}
functions.sort((a, b) => b.lines - a.lines);
longFiles.sort((a, b) => b.lines - a.lines);
const map = { longestFunctions: functions.slice(0, LONGEST), filesOver300Lines: longFiles, upwardImports: upward.sort() };

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(map, null, 2));
} else {
  console.log(`The ${LONGEST} longest functions:`);
  for (const f of map.longestFunctions) console.log(`  ${String(f.lines).padStart(4)}  ${f.name}  (${f.file}:${f.line})`);
  console.log(`\nFiles over ${FILE_LINES} lines: ${longFiles.length}`);
  for (const f of longFiles) console.log(`  ${String(f.lines).padStart(4)}  ${f.file}`);
  console.log(`\nImports from a lower layer to a higher one: ${upward.length} (layers, lowest first: ${LAYERS.map((names) => names.join(' ')).join(' < ')})`);
  for (const line of map.upwardImports) console.log(`  ${line}`);
}

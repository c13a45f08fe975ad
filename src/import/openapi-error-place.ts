import { locateInDocument } from '../files/locate-in-document.js';

/** A few lines of `text` around `line` (1-based), the line itself marked, as code frames show them. */
function frame(text: string, line: number, column: number): string {
  const lines = text.split('\n');
  const first = Math.max(1, line - 2);
  const last = Math.min(lines.length, line + 2);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    out.push(`${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${lines[n - 1]}`);
    if (n === line) out.push(`  ${' '.repeat(width)} | ${' '.repeat(column - 1)}^`);
  }
  return out.join('\n');
}

/**
 * The validator's errors (@readme/openapi-parser) point at lines of the document rendered as
 * JSON (`JSON.stringify(api, null, 2)`), not at the user's file. Each error that names such a
 * line is pointed again at the same field in the user's YAML or JSON file: its line, column and
 * code frame. An error whose JSON line cannot be matched is kept as it was.
 */
export async function placeOpenApiErrors(text: string, file: string, messages: readonly string[]): Promise<string[]> {
  const yaml = await import('yaml');
  const userLines = new yaml.LineCounter();
  const user = yaml.parseDocument(text, { lineCounter: userLines });
  if (user.errors.length > 0) return [...messages];
  const rendering = JSON.stringify(user.toJS(), null, 2);
  if (rendering === undefined) return [...messages];
  const renderedLines = rendering.split('\n');
  const renderedCounter = new yaml.LineCounter();
  const rendered = yaml.parseDocument(rendering, { lineCounter: renderedCounter });
  // Line of the rendering → the path of the field written on it (its key, or a list item).
  const paths = new Map<number, (string | number)[]>();
  const visit = (node: unknown, path: (string | number)[]): void => {
    if (yaml.isMap(node)) {
      for (const pair of node.items) {
        if (!yaml.isScalar(pair.key) || !pair.key.range) continue;
        const key = String(pair.key.value);
        const line = renderedCounter.linePos(pair.key.range[0]).line;
        if (!paths.has(line)) paths.set(line, [...path, key]);
        visit(pair.value, [...path, key]);
      }
    } else if (yaml.isSeq(node)) {
      node.items.forEach((item, i) => {
        if (yaml.isNode(item) && item.range) {
          const line = renderedCounter.linePos(item.range[0]).line;
          if (!paths.has(line)) paths.set(line, [...path, i]);
        }
        visit(item, [...path, i]);
      });
    }
  };
  visit(rendered.contents, []);
  const locate = locateInDocument(yaml, user, userLines);
  return messages.map((message) => {
    const marked = /^> +(\d+) \| ?(.*)$/m.exec(message);
    if (marked === null) return message;
    const line = Number(marked[1]);
    // The validator rendered the document as this code does: else the lines do not correspond.
    if (renderedLines[line - 1] !== marked[2]) return message;
    const path = paths.get(line);
    if (path === undefined) return message;
    const last = path.at(-1);
    const at = typeof last === 'string' ? locate(path.slice(0, -1), last) : locate(path);
    if (at === undefined) return message;
    const headline = message.split('\n\n')[0]!.trimEnd();
    const note = /\^+ (.+)$/m.exec(message)?.[1]?.trim();
    return `${headline}\nat line ${at.line}, column ${at.column} of ${file}${note === undefined ? '' : ` (${note})`}:\n\n${frame(text, at.line, at.column)}`;
  });
}

import type { Document, LineCounter } from 'yaml';
import type { LocateInFile } from '../core/engine/compile-scenarios.js';

type Yaml = typeof import('yaml');

/**
 * Where a field of a parsed YAML (or JSON, which the YAML parser reads too) file is written:
 * the value at `path`, or the key `key` of the map there; the nearest enclosing field when the
 * path goes further than the file (a missing field is reported on its parent).
 */
export function locateInDocument(yaml: Yaml, document: Document, lineCounter: LineCounter): LocateInFile {
  return (path, key) => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = document.getIn(path.slice(0, depth), true) as unknown;
      if (!yaml.isNode(node) || node.range === undefined || node.range === null) continue;
      let offset = node.range[0];
      if (key !== undefined && depth === path.length && yaml.isMap(node)) {
        const pair = node.items.find((item) => yaml.isScalar(item.key) && String(item.key.value) === key);
        if (yaml.isScalar(pair?.key) && pair.key.range) offset = pair.key.range[0];
      }
      const { line, col } = lineCounter.linePos(offset);
      return { line, column: col };
    }
    return undefined;
  };
}

import type { Contract } from './load-contract.js';
import { child, isRecord, pointerSegment, type Located } from './json-pointer.js';
import { readOnce } from './read-once.js';

/** One documented path (`/pets/{petId}`), with its path item (`$ref`s followed). */
export interface ContractPath {
  contract: Contract;
  /** As the document writes it: `/pets/{petId}`. */
  template: string;
  item: Located;
  /** Per segment: `undefined` for a literal, else the segment as a RegExp (`{name}:cancel` → /^[^/]+:cancel$/). */
  segments: { text: string; pattern: RegExp | undefined }[];
}

export const OPERATION_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function segmentOf(text: string): ContractPath['segments'][number] {
  if (!/\{[^}]+\}/.test(text)) return { text, pattern: undefined };
  const source = text.split(/(\{[^}]+\})/).map((part, i) => (i % 2 === 0 ? escapeRegExp(part) : '[^/]+')).join('');
  return { text, pattern: new RegExp(`^${source}$`) };
}

/** `/a/b/` → `['a', 'b']`; `/` → `[]`. */
export function pathSegments(path: string): string[] {
  return path.split('/').filter((segment, i, all) => i > 0 && !(segment === '' && i === all.length - 1));
}

const byContract = new WeakMap<Contract, ContractPath[]>();

/** Every path a document documents, read once per document. */
export function contractPaths(contract: Contract): ContractPath[] {
  let paths = byContract.get(contract);
  if (paths === undefined) {
    const root = { value: contract.document, pointer: '' };
    const all = child(contract.document, root, 'paths');
    paths = Object.keys(isRecord(all.value) ? all.value : {}).map((template) => ({
      contract,
      template,
      item: child(contract.document, all, template),
      segments: pathSegments(template).map(segmentOf),
    }));
    byContract.set(contract, paths);
  }
  return paths;
}

const operationsOf = new WeakMap<ContractPath, [method: string, operation: Located][]>();

/** The operations of a path item: `['GET', located operation]` in the document's order (the same objects on every call). */
export function pathOperations(path: ContractPath): [method: string, operation: Located][] {
  return readOnce(operationsOf, path, () => {
    const { value, pointer } = path.item;
    if (!isRecord(value)) return [];
    return Object.keys(value)
      .filter((key) => (OPERATION_METHODS as readonly string[]).includes(key))
      .map((method): [string, Located] => [method.toUpperCase(), { value: value[method], pointer: `${pointer}/${pointerSegment(method)}` }]);
  });
}

import { child, isRecord, type Json, type Located } from './json-pointer.js';
import type { OperationContext } from './operation-context.js';
import { readOnce } from './read-once.js';

const parametersOf = new WeakMap<Located, Located<Json>[]>();

/**
 * The operation's parameters with the path item's, the operation's winning on the same name and
 * place (OpenAPI), each with where it is in the document (its schema is compiled from there).
 */
export function operationParameters(context: Pick<OperationContext, 'contract' | 'operation' | 'pathItem'>): Located<Json>[] {
  return readOnce(parametersOf, context.operation, () => readParameters(context));
}

function readParameters(context: Pick<OperationContext, 'contract' | 'operation' | 'pathItem'>): Located<Json>[] {
  const { document } = context.contract;
  const byKey = new Map<string, Located<Json>>();
  for (const owner of [context.pathItem, context.operation]) {
    const list = child(document, owner, 'parameters');
    if (!Array.isArray(list.value)) continue;
    list.value.forEach((_, i) => {
      const parameter = child(document, list, i);
      const { value } = parameter;
      if (isRecord(value) && typeof value.name === 'string') byKey.set(`${String(value.in)}:${value.in === 'header' ? value.name.toLowerCase() : value.name}`, { value, pointer: parameter.pointer });
    });
  }
  return [...byKey.values()];
}

/** The JSON objects of an OpenAPI document, and `$ref`s inside it. */
export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `/paths/~1pets~1{petId}/get`: one pointer segment escaped (RFC 6901). */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function valueAt(document: Json, pointer: string): unknown {
  let value: unknown = document;
  for (const raw of pointer.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    value = isRecord(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/** A value found in the document, and where: the pointer compiles its schemas by reference. */
export interface Located<T = unknown> {
  value: T;
  pointer: string;
}

/**
 * Follow local `$ref`s (`#/components/responses/NotFound`) until a value that is not one. The
 * document is bundled (every external `$ref` made local) before this runs.
 * @note A `$ref` chain that loops is cut after 32 steps and returns the last value.
 */
export function resolveRef(document: Json, located: Located): Located {
  let current = located;
  for (let step = 0; step < 32 && isRecord(current.value) && typeof current.value.$ref === 'string' && current.value.$ref.startsWith('#'); step++) {
    const pointer = current.value.$ref.slice(1);
    current = { value: valueAt(document, pointer), pointer };
  }
  return current;
}

/** A child of a located object, through its `$ref`s. */
export function child(document: Json, parent: Located, key: string | number): Located {
  const value = isRecord(parent.value) || Array.isArray(parent.value) ? (parent.value as Record<string, unknown>)[key] : undefined;
  return resolveRef(document, { value, pointer: `${parent.pointer}/${pointerSegment(String(key))}` });
}

/** A key as a field path writes it: `.amount`, or `["x-request-id"]` when it is not a plain name. */
export function fieldKey(key: string | number): string {
  if (typeof key === 'number' || /^\d+$/.test(key)) return `[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** `response.body` + `/items/0/unit-price` → `response.body.items[0]["unit-price"]`. */
export function fieldPath(base: string, pointer: string): string {
  if (pointer === '') return base;
  return base + pointer.split('/').slice(1).map((part) => fieldKey(part.replace(/~1/g, '/').replace(/~0/g, '~'))).join('');
}

import { z } from 'zod';

/* Schema pieces the mock schema and the socket schema share. */

/**
 * `z.record`, except that an own `__proto__` key is validated like any other key.
 * @note zod skips `__proto__` keys in records (writing one to its output would set the
 * prototype), so a scenario, variant or matcher named `__proto__` would go unchecked. The
 * compiler reads the definitions themselves, where the key is an ordinary own key.
 */
export function record<V extends z.ZodType>(key: z.ZodString, value: V, params?: Parameters<typeof z.record>[2]) {
  return z.preprocess((input, ctx) => {
    if (typeof input === 'object' && input !== null && Object.hasOwn(input, '__proto__')) {
      const checked = value.safeParse((input as Record<string, unknown>)['__proto__']);
      for (const issue of checked.error?.issues ?? []) {
        ctx.addIssue({ ...issue, path: ['__proto__', ...issue.path] } as Parameters<typeof ctx.addIssue>[0]);
      }
    }
    return input;
  }, z.record(key, value, params));
}

/** A RegExp written as data (`{ regex: { source, flags? } }`), the form scenario files and Redis can hold. */
export const regexData = z.strictObject({ regex: z.strictObject({ source: z.string(), flags: z.string().optional() }) });


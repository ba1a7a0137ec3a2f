/**
 * The backstop behind the shared text() schema: no U+0000 reaches the database through a path
 * parameter, the query string or the body, whatever a route's schema says (or a route without one).
 * PostgreSQL cannot store U+0000 in text and would answer the query with an error.
 */
import type { FastifyInstance } from 'fastify';
import { CONTROL_CHAR_MESSAGE, fieldSentence } from '@zhyy/shared';
import { refuse } from './envelope.js';

const NUL = '\u0000';

/** The path of the first string (value or key) holding U+0000, or null. Iterative: deep nesting is fine. */
export function findNul(root: unknown): string | null {
  const stack: Array<{ value: unknown; path: string }> = [{ value: root, path: '' }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return path;
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, path: path ? `${path}.${i}` : String(i) }));
    } else if (value && typeof value === 'object' && !ArrayBuffer.isView(value)) {
      for (const [k, v] of Object.entries(value)) {
        const p = path ? `${path}.${k}` : k;
        if (k.includes(NUL)) return p.replaceAll(NUL, '');
        stack.push({ value: v, path: p });
      }
    }
  }
  return null;
}

export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    for (const value of [req.params, req.query, req.body]) {
      const at = findNul(value);
      if (at !== null) throw refuse(`参数错误：${fieldSentence(at.replaceAll(NUL, '').split('.').filter(Boolean), CONTROL_CHAR_MESSAGE)}`);
    }
  });
}

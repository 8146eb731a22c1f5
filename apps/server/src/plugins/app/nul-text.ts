import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BadRequestError } from '../../errors.js';

/**
 * Where in a request's input a string holds U+0000, as `choices.1` (the error handler's field
 * names); null if nowhere. Walked without recursion: a body may nest thousands of levels deep.
 */
function nulField(input: unknown): string | null {
  interface Node {
    value: unknown;
    key: string;
    parent: Node | null;
  }
  const pending: Node[] = [{ value: input, key: '', parent: null }];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (typeof node.value === 'string' && node.value.includes('\u0000')) {
      const path: string[] = [];
      for (let at: Node | null = node; at?.parent; at = at.parent) path.unshift(at.key);
      return path.join('.');
    }
    if (node.value !== null && typeof node.value === 'object') {
      for (const [key, value] of Object.entries(node.value)) pending.push({ value, key, parent: node });
    }
  }
  return null;
}

/**
 * PostgreSQL cannot store the NUL character in text, so a call carrying one is refused with
 * 400 on either database, rather than stored by SQLite and failing on PostgreSQL.
 */
export const nulTextPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      for (const [part, value] of [
        ['params', request.params],
        ['query', request.query],
        ['body', request.body],
      ] as const) {
        const field = nulField(value);
        if (field !== null) throw new BadRequestError('errors.nulText', { [field || part]: 'errors.nulText.field' });
      }
    });
  },
  { name: 'nul-text' },
);

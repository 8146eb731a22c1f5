import type { Question } from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import { hydrate, type Reader } from './pipeline.js';
import { present } from './questions.js';
import { isVisible } from './rules.js';

/**
 * A question as a visitor sees it, for the pages other sites link to or frame (the share page, the embed, oEmbed):
 * without its result, since a visitor is like someone who has not voted; `withheld` when moderation keeps it from
 * everyone but its author; undefined when there is none.
 */
export async function visitorQuestion(app: FastifyInstance, id: number): Promise<Question | 'withheld' | undefined> {
  const { db, memory } = app;
  const visitor: Reader = { db, cards: memory.cards, moderation: memory.moderation, viewer: null };
  const [read] = await hydrate(visitor, [id]);
  if (!read) return undefined;
  if (!isVisible(memory.moderation, null, read.card)) return 'withheld';
  return present(memory.moderation, null, [read])[0];
}

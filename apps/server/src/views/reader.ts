import type { FastifyRequest } from 'fastify';
import { viewer } from '../lib/request-session.js';
import type { Reader } from './pipeline.js';
import type { ViewerState } from './viewer-states.js';

/** The signed-in viewer's state, at the version read with their session. */
function viewerState(request: FastifyRequest): Promise<ViewerState> {
  return request.server.memory.viewers.get(request.server.db, viewer(request), request.viewerVersion);
}

/** What the read pipeline needs for the signed-in viewer of `request`. */
export async function readerOf(request: FastifyRequest): Promise<Reader & { viewer: ViewerState }> {
  const { db, memory } = request.server;
  return { db, cards: memory.cards, moderation: memory.moderation, viewer: await viewerState(request) };
}

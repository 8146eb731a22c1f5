import type { FastifyInstance, FastifyRequest } from 'fastify';
import { viewer } from '../plugins/auth.js';
import { QuestionCards } from './question-cards.js';
import { ViewerStates, type ViewerState } from './viewer-states.js';

declare module 'fastify' {
  interface FastifyInstance {
    cards: QuestionCards;
    viewers: ViewerStates;
  }
}

/** Questions kept at most; about 1.8 KB each. */
const MAX_CARDS = 20_000;
/** Memory the viewers' states take at most: about 2 KB for someone with 40 answers, 15 likes and 10 follows. */
const MAX_VIEWER_STATE_BYTES = 24 * 1024 * 1024;

/** The question cards and viewer states of this instance, told of what the other instances change. */
export function registerViews(app: FastifyInstance): void {
  const cards = new QuestionCards(MAX_CARDS);
  app.decorate('cards', cards);
  app.decorate('viewers', new ViewerStates(MAX_VIEWER_STATE_BYTES));
  app.changes.onRemote((change) => {
    if (change.kind === 'question') cards.staled(change.id);
    else if (change.kind === 'author') cards.authorChanged(change.id);
    else cards.staledAll();
  });
}

/** The signed-in viewer's state, at the version read with their session. */
export function viewerState(request: FastifyRequest): Promise<ViewerState> {
  return request.server.viewers.get(request.server.db, viewer(request), request.viewerVersion);
}

/**
 * A change to the viewer's own state committed here, which moved their version to `version`:
 * the state kept here takes it (`apply`), and their sessions here and elsewhere learn of it.
 */
export function ownStateMoved(request: FastifyRequest, version: number, apply: (state: ViewerState) => void): void {
  const userId = viewer(request);
  request.server.viewers.changed(userId, version, 1, apply);
  request.server.sessions.stateMoved(userId, version);
}

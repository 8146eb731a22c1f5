import type { UiLocale } from '@pollscope/contract';
import type { FastifyRequest } from 'fastify';
import { negotiateLocale } from '../i18n/locale.js';
import { sessionToken, tokenFrom } from '../lib/request-session.js';

/**
 * The signed-in person's `language`: of the viewer the auth hook found, else (on a page, or a path the hook leaves
 * alone) of the session the request's token or session cookie names; null for a visitor.
 */
async function accountLanguage(request: FastifyRequest): Promise<string | null> {
  const { db, memory, config } = request.server;
  let viewer = request.viewerId ?? null;
  let version = request.viewerVersion;
  if (viewer === null) {
    const token = tokenFrom(request) ?? sessionToken(request.headers.cookie);
    const session = token ? await memory.sessions.find(token, config.tokenIdleSeconds) : null;
    if (session === null) return null;
    viewer = session.userId;
    version = session.stateVersion;
  }
  return (await memory.viewers.get(db, viewer, version)).language;
}

/**
 * The language a request is answered in, pages and API alike (CONTRACT.md §7), first match wins: the signed-in
 * person's own, the cookie `pollscope_lang`, `Accept-Language`, English. A person whose state cannot be read (the
 * database away) is answered as a visitor.
 */
export async function requestLocale(request: FastifyRequest): Promise<UiLocale> {
  const account = await accountLanguage(request).catch(() => null);
  return negotiateLocale({
    account,
    cookie: request.headers.cookie,
    'accept-language': request.headers['accept-language'],
  });
}

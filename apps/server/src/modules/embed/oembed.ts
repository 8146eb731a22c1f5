import {
  api,
  EMBED_DEFAULT_WIDTH,
  EMBED_MIN_WIDTH,
  embedHeight,
  embedIframeHtml,
  embedPath,
  idSchema,
  type OembedResponse,
  type Question,
} from '@pollscope/contract';
import { CARD_HEIGHT, CARD_WIDTH } from '../share/index.js';

/**
 * How long an oEmbed consumer may keep the snippet, in seconds: it changes only if the question's text did, which never
 * happens, and a question removed meanwhile is told by the frame itself within a minute (the page's Cache-Control).
 */
export const OEMBED_CACHE_AGE = 3600;

/** The question a URL of this site's share page names (`{PUBLIC_URL}/q/{id}`), or null for any other URL. */
export function questionIdOf(url: string, publicUrl: string): number | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.origin !== new URL(publicUrl).origin) return null;
  const id = /^\/q\/([^/]+)\/?$/.exec(parsed.pathname)?.[1];
  const checked = idSchema.safeParse(id);
  return checked.success ? checked.data : null;
}

export interface OembedSize {
  maxwidth?: number;
  maxheight?: number;
}

/**
 * oEmbed 1.0's answer for a question (CONTRACT.md §7): the frame at its default size, narrowed to `maxwidth` but never
 * below the narrowest the page is laid out for, and lowered to `maxheight`.
 */
export function oembedOf(question: Question, publicUrl: string, { maxwidth, maxheight }: OembedSize): OembedResponse {
  const choiceCount = Array.isArray(question.choices) ? question.choices.length : 0;
  const width = Math.max(EMBED_MIN_WIDTH, Math.min(EMBED_DEFAULT_WIDTH, maxwidth ?? EMBED_DEFAULT_WIDTH));
  const fullHeight = embedHeight(question.type, choiceCount);
  const height = Math.min(fullHeight, maxheight ?? fullHeight);
  return {
    version: '1.0',
    type: 'rich',
    html: embedIframeHtml({ src: `${publicUrl}${embedPath(question.id)}`, title: question.title, width, height }),
    width,
    height,
    title: question.title,
    author_name: question.user_name,
    author_url: `${publicUrl}/user/${question.user}`,
    provider_name: 'Pollscope',
    provider_url: publicUrl,
    thumbnail_url: `${publicUrl}${api.questionCard(question.id)}`,
    thumbnail_width: CARD_WIDTH,
    thumbnail_height: CARD_HEIGHT,
    cache_age: OEMBED_CACHE_AGE,
  };
}

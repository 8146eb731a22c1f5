import { z } from 'zod';
import { resultSchema, type QuestionType } from './questions.js';

/**
 * Embeds (contract section 7): a question framed on another site at `/embed/q/{id}`, voted on in a
 * window of the app's own (`/q/{id}?answer={choice}`), which tells the embed with `postMessage`.
 */

/** The embed page of a question: the only path any site may frame. */
export const embedPath = (id: number | string) => `/embed/q/${id}`;

/** The app's window an embed opens to vote: `answer` is the choice's value as `answerBodySchema` takes it. */
export const embedVotePath = (id: number | string, choice: number) => `/q/${id}?answer=${encodeURIComponent(choice)}`;

/** oEmbed (GET /api/oembed?url=…): the discovery link on `/q/{id}` names this type. */
export const OEMBED_PATH = '/api/oembed';
export const OEMBED_LINK_TYPE = 'application/json+oembed';

/** The frame's default size; an oEmbed consumer's `maxwidth` and `maxheight` shrink it. */
export const EMBED_DEFAULT_WIDTH = 500;
export const EMBED_MIN_WIDTH = 300;

/**
 * The frame's height for a question, which the host page cannot learn from the frame: the question's text and the
 * brand, then a row per multiple-choice choice, two rows of five ratings, or a number's field.
 */
export function embedHeight(type: QuestionType, choiceCount: number): number {
  const rows = type === 'MC' ? choiceCount : type === 'RS' ? 2 : 1;
  return 150 + rows * 52;
}

/**
 * What the app's window posts to the embed that opened it, once the person's vote is counted or
 * found already cast: their choice and the result they may now see. Sent with the app's origin as
 * the target; the embed takes it only from that origin, and only for its own question.
 */
export const embedAnsweredMessageSchema = z.object({
  type: z.literal('pollscope:answered'),
  question_id: z.number().int(),
  choice: z.number(),
  result: resultSchema,
});
export type EmbedAnsweredMessage = z.infer<typeof embedAnsweredMessageSchema>;

/** The `<iframe>` snippet, the same in oEmbed's `html` and in the share menu's "Embed" action. */
export function embedIframeHtml(options: { src: string; title: string; width: number; height: number }): string {
  const attribute = (value: string) =>
    value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return (
    `<iframe src="${attribute(options.src)}" title="${attribute(options.title)}" ` +
    `width="${options.width}" height="${options.height}" style="border:0;max-width:100%" loading="lazy"></iframe>`
  );
}

/** oEmbed's query: the address of a question's page, `{PUBLIC_URL}/q/{id}`, and the room the consumer has for it. */
export const oembedQuerySchema = z.object({
  url: z.string().max(2048).describe('The address of a question’s page on this site, `{PUBLIC_URL}/q/{id}`'),
  maxwidth: z.coerce.number().int().positive().optional().describe('The widest the frame may be, in pixels'),
  maxheight: z.coerce.number().int().positive().optional().describe('The tallest the frame may be, in pixels'),
  format: z.string().max(16).optional().describe('`json`, the default; `xml` is answered 501'),
});
export type OembedQuery = z.infer<typeof oembedQuerySchema>;

/** oEmbed 1.0's answer for a question (type `rich`). */
export const oembedResponseSchema = z.object({
  version: z.literal('1.0'),
  type: z.literal('rich'),
  html: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  title: z.string(),
  author_name: z.string(),
  author_url: z.string(),
  provider_name: z.literal('Pollscope'),
  provider_url: z.string(),
  thumbnail_url: z.string(),
  thumbnail_width: z.number().int(),
  thumbnail_height: z.number().int(),
  cache_age: z.number().int(),
});
export type OembedResponse = z.infer<typeof oembedResponseSchema>;

/**
 * Invisible formatting characters (Unicode category Cf): bidirectional overrides and isolates,
 * zero-width spaces and joiners, soft hyphens. A joiner between two pictographs stays, for it
 * makes one emoji of them (a family, a flag); anywhere else it is dropped like the rest.
 */
const INVISIBLE = /(?!(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic}))\p{Cf}/gu;

/** Half a surrogate pair: no character at all, which a mail's encoding cannot carry. */
const LONE_SURROGATE = /\p{Cs}/gu;

/**
 * Line breaks of every kind, tabs and other control characters (category Cc), and runs of spaces; not the no-break
 * spaces (U+00A0, U+202F), which join and break no line, and which French writes before ? ! : and ;.
 */
const BREAKS_AND_SPACES = /(?:(?![\u00A0\u202F])[\p{Cc}\p{Zl}\p{Zp}\s])+/gu;

/**
 * What people typed (a name, a question's title, an address) as one plain line of a mail: it
 * cannot start a paragraph of its own ("user\n\nURGENT: confirm at …"), reorder what follows it
 * (U+202E) or hide anything (U+200B). Line breaks, tabs and other control characters become a
 * space (no-break spaces stay), invisible formatting characters go, and spaces are trimmed and single. Every part of a
 * mail passes through it (`renderMail`, `queueMail`'s subject), so that a new kind of mail cannot
 * forget it; HTML is escaped on top of it, never instead.
 */
export function plainLine(text: string): string {
  return text.replace(INVISIBLE, '').replace(LONE_SURROGATE, '\uFFFD').replace(BREAKS_AND_SPACES, ' ').trim();
}

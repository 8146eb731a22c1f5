import { APP_FILES_TEMPLATE_ID, directionOf, FIRST_SCREEN_DATA_ID, type UiLocale } from '@pollscope/contract';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { escapeHtml } from '../../lib/html.js';

/** Where the web app's build writes the entry page's template, in its folder (apps/web/build/entry-page-template.ts). */
export const ENTRY_PAGE_TEMPLATE_FILE = 'server/entry-page.json';

/**
 * Where the server writes into the entry page, and what the build knew there, as the build writes it: the `<html>`
 * element's language, the first screen's answers after `<meta charset>`, the page's own inline scripts, its style
 * sheets and the app's files (written in, and set aside, with a first screen), the head's end, the root element's
 * content, and what follows it.
 */
export type EntryPageSlot =
  | { slot: 'language' | 'first-screen-data' | 'head-end' | 'first-screen' | 'app-files' }
  | { slot: 'inline-script'; code: string }
  | { slot: 'style-sheet'; href: string; tag: string }
  | { slot: 'app-file'; tag: string };

/**
 * The entry page as built, cut where the server writes: its text in pieces, with the slots in order between them;
 * and the style sheets a first screen needs beyond the page's own, by their addresses.
 */
export interface EntryPageTemplate {
  parts: (string | EntryPageSlot)[];
  firstScreenStyles: string[];
}

/** The meta tag the web app reads the site's public address from, for the links it shares. */
const PUBLIC_URL_META = 'pollscope:public-url';

/** What goes into the entry page for a signed-in person's feed: the answers, the style sheets and the rendered feed. */
export interface FirstScreen {
  answers: Record<string, unknown>;
  /** The contents of the style sheets the page links, by their addresses, written in where it links them. */
  pageStyleSheets: ReadonlyMap<string, string>;
  /** The contents of the style sheets the feed needs beyond the page's, written in at the end of its head. */
  feedStyleSheets: readonly string[];
  html: string;
}

/** What one entry page is written with: its language, the site's address, and a signed-in person's feed if rendered. */
export interface EntryPageFill {
  locale: UiLocale;
  publicUrl: string;
  firstScreen: FirstScreen | null;
}

/** The template the build left in `distDir`; null where the web app is not built. */
export function readEntryPageTemplate(distDir: string): EntryPageTemplate | null {
  const file = path.join(distDir, ENTRY_PAGE_TEMPLATE_FILE);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as EntryPageTemplate) : null;
}

/** The addresses of the style sheets the page links, and of those a first screen needs beyond them. */
export interface StyleSheets {
  page: string[];
  firstScreen: string[];
}

export function styleSheetsOf({ parts, firstScreenStyles }: EntryPageTemplate): StyleSheets {
  const page = parts.flatMap((part) => (typeof part !== 'string' && part.slot === 'style-sheet' ? [part.href] : []));
  return { page, firstScreen: [...new Set(firstScreenStyles)].filter((href) => !page.includes(href)) };
}

/**
 * The page's own inline scripts (the first script, which the build writes into it) as sources of its
 * Content-Security-Policy: allowed by their hashes, so that no other inline script runs.
 */
export function inlineScriptSources({ parts }: EntryPageTemplate): string[] {
  return parts.flatMap((part) =>
    typeof part !== 'string' && part.slot === 'inline-script'
      ? [`'sha256-${createHash('sha256').update(part.code).digest('base64')}'`]
      : [],
  );
}

/** `<style>` elements of `css`. */
const styles = (...css: string[]) => css.map((sheet) => `<style>${sheet}</style>`).join('');

/**
 * The entry page in `locale` with the site's address in it, and `firstScreen` if there is one: the answers before the
 * page's first script, which starts the app with them, the style sheets written in where the page linked them, and
 * the feed. The app's own files move into a template the first script loads them from once the feed is on screen:
 * downloaded beside it, they held its first frame back (docs/performance.md, The first card).
 */
export function writeEntryPage({ parts }: EntryPageTemplate, { locale, publicUrl, firstScreen }: EntryPageFill) {
  const setAside: string[] = [];
  const fill = (part: EntryPageSlot): string => {
    switch (part.slot) {
      case 'language':
        return `lang="${locale}" dir="${directionOf(locale)}" data-locale="${locale}"`;
      case 'inline-script':
        return `<script>${part.code}</script>`;
      case 'head-end':
        return `<meta name="${PUBLIC_URL_META}" content="${escapeHtml(publicUrl)}">\n${styles(...(firstScreen?.feedStyleSheets ?? []))}`;
      case 'style-sheet':
        return firstScreen ? styles(firstScreen.pageStyleSheets.get(part.href) ?? '') : part.tag;
      case 'app-file':
        if (!firstScreen) return part.tag;
        setAside.push(part.tag);
        return '';
      case 'first-screen-data':
        // As JSON in a script element, where only "<" could end it early.
        return firstScreen
          ? `<script type="application/json" id="${FIRST_SCREEN_DATA_ID}">${JSON.stringify(firstScreen.answers).replaceAll('<', '\\u003c')}</script>`
          : '';
      case 'first-screen':
        // Inert until the app replaces it: a vote or a tap on it before then would do nothing, or reload the page.
        return firstScreen ? `<div inert style="display:contents">${firstScreen.html}</div>` : '';
      case 'app-files':
        return firstScreen ? `<template id="${APP_FILES_TEMPLATE_ID}">${setAside.join('')}</template>` : '';
      default:
        return part satisfies never;
    }
  };
  return parts.map((part) => (typeof part === 'string' ? part : fill(part))).join('');
}

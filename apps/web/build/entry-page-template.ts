import { JSDOM } from 'jsdom';
import type { Plugin } from 'vite';
import { firstScreenFiles } from './start-first-screen-early.ts';

/**
 * Where the build writes the entry page's template, in its folder; the server reads it there
 * (apps/server/src/modules/web-app/entry-page.ts).
 */
export const ENTRY_PAGE_TEMPLATE = 'server/entry-page.json';

/** Whether a file of the build is the server's own (the template, the renderer), which it never sends. */
export const isServersOwn = (fileName: string) => fileName.startsWith('server/');

/**
 * Where the server writes into the entry page, and what the build knew there. `language`: the
 * `<html>` element's `lang`, `dir` and `data-locale`. `first-screen-data`: after `<meta charset>`,
 * the answers a first screen was rendered from. `inline-script`: one of the page's own scripts,
 * which its Content-Security-Policy allows by hash. `style-sheet`: a linked style sheet, written
 * in with a first screen. `app-file`: the tag of one of the app's files (its entry script, a
 * preload), set aside with a first screen. `head-end`: before `</head>`. `first-screen`: in the
 * root element. `app-files`: after it, the files set aside.
 */
export type EntryPageSlot =
  | { slot: 'language' | 'first-screen-data' | 'head-end' | 'first-screen' | 'app-files' }
  | { slot: 'inline-script'; code: string }
  | { slot: 'style-sheet'; href: string; tag: string }
  | { slot: 'app-file'; tag: string };

/**
 * The entry page as built, cut where the server writes: its text in pieces, with the slots in order between them;
 * and the style sheets a first screen needs beyond the page's own, which the server writes in with it.
 */
export interface EntryPageTemplate {
  parts: (string | EntryPageSlot)[];
  firstScreenStyles: string[];
}

/** A stretch of the page, from `from` to `to` in its text, that the template has as `parts` instead. */
interface Cut {
  from: number;
  to: number;
  parts: (string | EntryPageSlot)[];
}

/** The attributes of `<html>` the server writes, those of the page's language. */
const LANGUAGE_ATTRIBUTES = new Set(['lang', 'dir', 'data-locale']);

/** The app's own files in the page: its entry script, and the modules and styles preloaded beside it. */
const APP_FILES = 'script[type="module"][src], link[rel="modulepreload"], link[rel="preload"]';

/** `found`, which the built page must have: a page without it is not one the server can fill. */
function required<T>(found: T | null | undefined, what: string): T {
  if (found === null || found === undefined) throw new Error(`The built index.html has no ${what}`);
  return found;
}

/** Where the server writes in `html`, found by parsing it: each element by where the parser found it in the text. */
function cutsOf(html: string): Cut[] {
  const dom = new JSDOM(html, { includeNodeLocations: true });
  const { document } = dom.window;
  const locate = (element: Element | null, what: string) => required(element && dom.nodeLocation(element), what);
  const tagOf = (element: Element) => {
    const { startOffset, endOffset } = locate(element, element.localName);
    return html.slice(startOffset, endOffset);
  };
  const replaced = (element: Element, slot: EntryPageSlot): Cut => {
    const { startOffset, endOffset } = locate(element, element.localName);
    return { from: startOffset, to: endOffset, parts: [slot] };
  };
  const at = (offset: number, slot: EntryPageSlot): Cut => ({ from: offset, to: offset, parts: [slot] });

  const root = required(locate(document.documentElement, '<html>').startTag, '<html> start tag');
  const otherAttributes = Object.entries(root.attrs ?? {})
    .filter(([name]) => !LANGUAGE_ATTRIBUTES.has(name))
    .map(([, { startOffset, endOffset }]) => ` ${html.slice(startOffset, endOffset)}`);
  const language: Cut = {
    from: root.startOffset,
    to: root.endOffset,
    parts: ['<html ', { slot: 'language' }, ...otherAttributes, '>'],
  };
  const inlineScripts = [...document.querySelectorAll('script:not([src])')];
  if (inlineScripts.some((script) => script.attributes.length > 0))
    throw new Error('The built index.html has an inline script with attributes, which the server would leave out');
  const appRoot = locate(document.getElementById('root'), 'root element');
  return [
    language,
    at(locate(document.querySelector('meta[charset]'), '<meta charset>').endOffset, { slot: 'first-screen-data' }),
    ...inlineScripts.map((script) => replaced(script, { slot: 'inline-script', code: script.textContent ?? '' })),
    ...[...document.querySelectorAll('link[rel="stylesheet"]')].map((link) =>
      replaced(link, {
        slot: 'style-sheet',
        href: required(link.getAttribute('href'), 'style sheet address'),
        tag: tagOf(link),
      }),
    ),
    ...[...document.querySelectorAll(APP_FILES)].map((file) => replaced(file, { slot: 'app-file', tag: tagOf(file) })),
    at(required(locate(document.head, '<head>').endTag, '</head>').startOffset, { slot: 'head-end' }),
    at(required(appRoot.startTag, 'root element start tag').endOffset, { slot: 'first-screen' }),
    at(appRoot.endOffset, { slot: 'app-files' }),
  ].sort((a, b) => a.from - b.from || a.to - b.to);
}

/** `html`, the entry page as built, cut where the server writes. */
export function partsOf(html: string): EntryPageTemplate['parts'] {
  const parts: EntryPageTemplate['parts'] = [];
  let done = 0;
  for (const cut of cutsOf(html)) {
    if (cut.from < done) throw new Error(`The built index.html cannot be cut at ${cut.from}`);
    parts.push(html.slice(done, cut.from), ...cut.parts);
    done = cut.to;
  }
  parts.push(html.slice(done));
  // Text next to text as one piece.
  return parts.reduce<EntryPageTemplate['parts']>((merged, part) => {
    const last = merged.length - 1;
    if (typeof part !== 'string') merged.push(part);
    else if (typeof merged[last] === 'string') merged[last] += part;
    else if (part !== '') merged.push(part);
    return merged;
  }, []);
}

/**
 * Writes the entry page as the template the server fills (ENTRY_PAGE_TEMPLATE), made from the
 * index.html the build wrote with every tag the other plugins add: its text, cut where the server
 * writes the page's language, its address, a signed-in person's first screen and what goes with
 * it (the answers it was rendered from, the style sheets written in, the app's files set aside),
 * with the style sheets of the frame and the feed the first screen is.
 */
export function entryPageTemplate(): Plugin {
  return {
    name: 'pollscope:entry-page-template',
    apply: 'build',
    // After the HTML pages are written into the bundle.
    enforce: 'post',
    generateBundle(_options, bundle) {
      const page = bundle['index.html'];
      if (page?.type !== 'asset') return this.error('The build has no index.html to make the entry page of');
      const { frameStyles, feedScreen } = firstScreenFiles(bundle);
      const template: EntryPageTemplate = {
        parts: partsOf(String(page.source)),
        firstScreenStyles: [...frameStyles, ...feedScreen.styles],
      };
      this.emitFile({ type: 'asset', fileName: ENTRY_PAGE_TEMPLATE, source: JSON.stringify(template) });
    },
  };
}

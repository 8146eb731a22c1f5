import { displayId } from '@pollscope/contract';
import { renderAsync } from '@resvg/resvg-js';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import satori, { type SatoriOptions } from 'satori';
import { DRAWING_THREAD, type DrawReply, type DrawRequest } from './card-drawer.js';
import { CARD_HEIGHT, CARD_WIDTH } from './card-image.js';
import type { Shown } from './wording.js';

/**
 * Draws the pictures of link previews, in a thread of its own (card-drawer.ts): laying out a
 * picture takes the CPU for tens of milliseconds, and its library and fonts some 40 MB that the
 * server needs only while it draws (some 35 MB more once it has drawn Japanese).
 */

/** The light theme of the web app (apps/web/src/styles/global.css): previews are shown on any background. */
const colors = {
  bg: '#f5f4fa',
  surface: '#ffffff',
  text: '#1b1928',
  muted: '#5c5870',
  border: '#e2dfee',
  borderStrong: '#c9c4dc',
  accent: '#5434e8',
  accentSoft: '#ece8ff',
  accentText: '#4b2ad9',
};

/**
 * Fonts shipped in npm packages, so the picture is drawn alike on every machine: Inter (the
 * scripts it covers, each subset a font of its own, as the drawing falls back from one family to
 * the next glyph by glyph) and Noto Emoji, then the fonts of the scripts Inter lacks that the
 * app's languages write in. Other scripts show as empty boxes.
 */
const INTER_SUBSETS = ['latin', 'latin-ext', 'greek', 'cyrillic', 'vietnamese'];
type Font = SatoriOptions['fonts'][number];

/** The weights the picture uses (its `fontWeight`s), in every family. */
const WEIGHTS = [400, 700, 800] as const;

/**
 * The fonts of Japanese and Arabic, for questions and frames in those languages: each about 1.4 and 0.1 MB a weight
 * (the Japanese the JIS X 0208 kana and kanji, some 6,900 characters), read only for a picture with text they draw,
 * as most threads draw none.
 */
const SCRIPTS = [
  {
    name: 'Noto Sans JP',
    file: (weight: Font['weight']) => `@fontsource/noto-sans-jp/files/noto-sans-jp-japanese-${weight}-normal.woff`,
    // Kana, kanji, and the punctuation and full-width forms Japanese writes with.
    needed: /[\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Han}\u3000-\u303f\uff00-\uffef]/u,
  },
  {
    name: 'Noto Sans Arabic',
    file: (weight: Font['weight']) =>
      `@fontsource/noto-sans-arabic/files/noto-sans-arabic-arabic-${weight}-normal.woff`,
    needed: /\p{scx=Arabic}/u,
  },
] as const;
type Script = (typeof SCRIPTS)[number];

const require = createRequire(import.meta.url);
/** A file of an npm package, `name/path`. */
const fileOf = (file: string) => {
  const [scope, name, ...rest] = file.split('/');
  return path.join(path.dirname(require.resolve(`${scope}/${name}/package.json`)), ...rest);
};
const readFont = async (name: string, weight: Font['weight'], file: string): Promise<Font> => ({
  name,
  weight,
  style: 'normal',
  data: await fs.readFile(fileOf(file)),
});

async function loadBaseFonts(): Promise<Font[]> {
  const emojiDir = fileOf('@fontsource/noto-emoji/files');
  const emojiFiles = (await fs.readdir(emojiDir)).filter((file) => file.endsWith('-400-normal.woff')).sort();
  const inter = WEIGHTS.flatMap((weight) =>
    INTER_SUBSETS.map((subset) =>
      readFont(`Inter ${subset}`, weight, `@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`),
    ),
  );
  const emoji = emojiFiles.map((file, index) =>
    readFont(`Noto Emoji ${index}`, 400, `@fontsource/noto-emoji/files/${file}`),
  );
  return Promise.all([...inter, ...emoji]);
}

const loadScriptFonts = (script: Script): Promise<Font[]> =>
  Promise.all(WEIGHTS.map((weight) => readFont(script.name, weight, script.file(weight))));

/** Each part read on the first picture of the thread that needs it, and again after a failed read. */
const fontsRead = new Map<string, Promise<Font[]>>();
function once(part: string, load: () => Promise<Font[]>): Promise<Font[]> {
  let read = fontsRead.get(part);
  if (!read) {
    read = load().catch((error: unknown) => {
      fontsRead.delete(part);
      throw error;
    });
    fontsRead.set(part, read);
  }
  return read;
}

/**
 * The lists of fonts made so far, by the scripts they add: the same list, the same object, for each set of scripts,
 * as the drawing keeps what it made of a list by the list (and parses each font once, whatever list holds it).
 */
const fontLists = new Map<string, Font[]>();

/** The fonts a picture with these texts needs. */
async function fontsFor(texts: string[]): Promise<Font[]> {
  const scripts = SCRIPTS.filter((script) => texts.some((text) => script.needed.test(text)));
  const parts = await Promise.all([
    once('Inter, Noto Emoji', loadBaseFonts),
    ...scripts.map((script) => once(script.name, () => loadScriptFonts(script))),
  ]);
  const key = scripts.map((script) => script.name).join(', ');
  let list = fontLists.get(key);
  if (!list) {
    list = parts.flat();
    fontLists.set(key, list);
  }
  return list;
}

/** Every text a picture shows of its question and its frame. */
const textsOf = (shown: Shown) =>
  Object.values(shown)
    .flat()
    .filter((value): value is string => typeof value === 'string');

const familiesOf = (fonts: Font[]) => [...new Set(fonts.map((font) => font.name))].join(', ');

/** An element as satori reads it: React's shape, without React. */
interface Element {
  type: string;
  key: null;
  props: {
    style?: Record<string, string | number>;
    children?: (Element | string)[];
    src?: string;
    width?: number;
    height?: number;
  };
}
const h = (type: string, style: Record<string, string | number>, ...children: (Element | string)[]): Element => ({
  type,
  key: null,
  props: { style, children },
});

const searchMark = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round"><circle cx="11" cy="11" r="7"/><path d="m20 20-4-4"/></svg>',
)}`;

type Direction = Shown['direction'];
/** Letters of the scripts written right to left; any other letter is written left to right. */
const rightToLeft = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;

/**
 * The direction of a text people typed, by its first letter, as a browser's `dir="auto"`; `frame`'s for one with no
 * letter. The drawing orders words by their block's direction, not by the script of each word: an Arabic title in a
 * left-to-right block comes out with its words in reverse.
 */
function directionOfText(text: string, frame: Direction): Direction {
  const letter = /\p{L}/u.exec(text)?.[0];
  return letter === undefined ? frame : rightToLeft.test(letter) ? 'rtl' : 'ltr';
}

/** Long titles, and titles above many choices, in smaller type, so that up to three lines and the choices fit. */
function titleSize({ title, choices }: Shown): number {
  const size = title.length <= 40 ? 64 : title.length <= 80 ? 54 : 46;
  return choices.length > 2 ? size - 6 : size;
}

const pill = (text: string, direction: Direction, style: Record<string, string | number> = {}) =>
  h(
    'div',
    {
      display: 'flex',
      maxWidth: 520,
      padding: '10px 26px',
      borderRadius: 999,
      border: `2px solid ${colors.borderStrong}`,
      background: colors.surface,
      fontSize: 28,
      fontWeight: 700,
      color: colors.text,
      ...style,
    },
    h('div', { display: 'block', overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis', direction }, text),
  );

function answersOf(shown: Shown): Element {
  const row = { display: 'flex', flexWrap: 'wrap', gap: 14, marginTop: 28 } as const;
  if (shown.choices.length > 0)
    return h('div', row, ...shown.choices.map((choice) => pill(choice, directionOfText(choice, shown.direction))));
  return h(
    'div',
    row,
    pill(shown.scale ?? '', shown.direction, {
      background: colors.accentSoft,
      borderColor: colors.accentSoft,
      color: colors.accentText,
    }),
  );
}

/** The app's mark and name, and the question's number and tag. */
function headerOf(shown: Shown): Element {
  const logo = h(
    'div',
    { display: 'flex', alignItems: 'center', gap: 18 },
    h(
      'div',
      {
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        width: 60,
        height: 60,
        borderRadius: 16,
        background: `linear-gradient(135deg, ${colors.accent}, #8a5cf6)`,
      },
      {
        type: 'img',
        key: null,
        props: { src: searchMark, width: 34, height: 34 },
      },
    ),
    h('div', { fontSize: 32, fontWeight: 800, letterSpacing: 5, color: colors.text }, 'POLLSCOPE'),
  );
  const label = [displayId('QID', shown.qid), shown.tag && `#${shown.tag}`].filter(Boolean).join('  ·  ');
  return h(
    'div',
    { display: 'flex', alignItems: 'center', justifyContent: 'space-between' },
    logo,
    h('div', { fontSize: 26, fontWeight: 700, color: colors.muted }, label),
  );
}

/** Who asked, and how many answered. */
function authorOf(shown: Shown): Element {
  return h(
    'div',
    { display: 'flex', alignItems: 'center', gap: 16, fontSize: 28, color: colors.muted },
    h(
      'div',
      {
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        width: 56,
        height: 56,
        borderRadius: 999,
        background: colors.accentSoft,
        color: colors.accentText,
        fontWeight: 800,
      },
      shown.author.slice(0, 1).toUpperCase(),
    ),
    h(
      'div',
      {
        display: 'block',
        maxWidth: 360,
        overflow: 'hidden',
        whiteSpace: 'nowrap',
        textOverflow: 'ellipsis',
        fontWeight: 700,
        color: colors.text,
        direction: directionOfText(shown.author, shown.direction),
      },
      shown.author,
    ),
    h('div', {}, `·  ${shown.votes}`),
  );
}

function callOf(shown: Shown): Element {
  return h(
    'div',
    {
      display: 'flex',
      padding: '16px 34px',
      borderRadius: 999,
      background: colors.accent,
      color: '#ffffff',
      fontSize: 28,
      fontWeight: 800,
    },
    shown.call,
  );
}

/** The question as a card: its title, its answers, and who asked beside the call to answer. */
function questionOf(shown: Shown): Element {
  return h(
    'div',
    {
      display: 'flex',
      flexDirection: 'column',
      flexGrow: 1,
      marginTop: 28,
      padding: '36px 48px 36px 48px',
      borderRadius: 32,
      border: `2px solid ${colors.border}`,
      background: colors.surface,
      boxShadow: '0 10px 28px rgba(24, 20, 48, 0.10)',
    },
    h(
      'div',
      {
        display: 'block',
        fontSize: titleSize(shown),
        fontWeight: 800,
        lineHeight: 1.15,
        color: colors.text,
        lineClamp: 3,
        direction: directionOfText(shown.title, shown.direction),
      },
      shown.title,
    ),
    answersOf(shown),
    h(
      'div',
      { display: 'flex', alignItems: 'center', justifyContent: 'space-between', marginTop: 'auto', paddingTop: 20 },
      authorOf(shown),
      callOf(shown),
    ),
  );
}

function cardElement(shown: Shown, fontFamily: string): Element {
  return h(
    'div',
    {
      display: 'flex',
      flexDirection: 'column',
      width: '100%',
      height: '100%',
      boxSizing: 'border-box',
      padding: '40px 56px 40px 56px',
      background: `linear-gradient(135deg, ${colors.bg}, ${colors.accentSoft})`,
      fontFamily,
      // The frame's: its rows run from the right in Arabic, and its texts start there.
      direction: shown.direction,
    },
    headerOf(shown),
    questionOf(shown),
  );
}

async function drawCard(shown: Shown): Promise<Uint8Array<ArrayBuffer>> {
  const loaded = await fontsFor(textsOf(shown));
  // satori's types name React's elements; the plain objects it reads have the same shape.
  const svg = await satori(cardElement(shown, familiesOf(loaded)) as unknown as Parameters<typeof satori>[0], {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts: loaded,
  });
  const rendered = await renderAsync(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } });
  // A copy in memory of its own, which moves to the server's thread instead of being copied again.
  return Uint8Array.from(rendered.asPng());
}

if (parentPort && workerData === DRAWING_THREAD) {
  const port = parentPort;
  port.on('message', ({ id, shown }: DrawRequest) => {
    drawCard(shown).then(
      (png) => port.postMessage({ id, png } satisfies DrawReply, [png.buffer]),
      (error: unknown) =>
        port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies DrawReply),
    );
  });
}

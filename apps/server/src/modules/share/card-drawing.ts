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
 * server needs only while it draws.
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
 * the next glyph by glyph) and Noto Emoji. Other scripts show as empty boxes.
 */
const INTER_SUBSETS = ['latin', 'latin-ext', 'greek', 'cyrillic', 'vietnamese'];
const INTER_WEIGHTS = [400, 700, 800] as const;

type Font = SatoriOptions['fonts'][number];

async function loadFonts(): Promise<Font[]> {
  const require = createRequire(import.meta.url);
  const filesOf = (name: string) => path.join(path.dirname(require.resolve(`${name}/package.json`)), 'files');
  const interDir = filesOf('@fontsource/inter');
  const emojiDir = filesOf('@fontsource/noto-emoji');
  const emojiFiles = (await fs.readdir(emojiDir)).filter((file) => file.endsWith('-400-normal.woff')).sort();
  const inter = INTER_WEIGHTS.flatMap((weight) =>
    INTER_SUBSETS.map(async (subset): Promise<Font> => ({
      name: `Inter ${subset}`,
      weight,
      style: 'normal',
      data: await fs.readFile(path.join(interDir, `inter-${subset}-${weight}-normal.woff`)),
    })),
  );
  const emoji = emojiFiles.map(async (file, index): Promise<Font> => ({
    name: `Noto Emoji ${index}`,
    weight: 400,
    style: 'normal',
    data: await fs.readFile(path.join(emojiDir, file)),
  }));
  return Promise.all([...inter, ...emoji]);
}

/** Read on the first picture a process draws, and again after a failed read. */
let fontsRead: Promise<Font[]> | undefined;
function fonts(): Promise<Font[]> {
  fontsRead ??= loadFonts().catch((error: unknown) => {
    fontsRead = undefined;
    throw error;
  });
  return fontsRead;
}

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

/** Long titles, and titles above many choices, in smaller type, so that up to three lines and the choices fit. */
function titleSize({ title, choices }: Shown): number {
  const size = title.length <= 40 ? 64 : title.length <= 80 ? 54 : 46;
  return choices.length > 2 ? size - 6 : size;
}

const pill = (text: string, style: Record<string, string | number> = {}) =>
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
    h('div', { display: 'block', overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' }, text),
  );

function answersOf(shown: Shown): Element {
  const row = { display: 'flex', flexWrap: 'wrap', gap: 14, marginTop: 28 } as const;
  if (shown.choices.length > 0) return h('div', row, ...shown.choices.map((choice) => pill(choice)));
  return h(
    'div',
    row,
    pill(shown.scale ?? '', {
      background: colors.accentSoft,
      borderColor: colors.accentSoft,
      color: colors.accentText,
    }),
  );
}

function cardElement(shown: Shown, fontFamily: string): Element {
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
  const header = h(
    'div',
    { display: 'flex', alignItems: 'center', justifyContent: 'space-between' },
    logo,
    h('div', { fontSize: 26, fontWeight: 700, color: colors.muted }, label),
  );
  const author = h(
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
      },
      shown.author,
    ),
    h('div', {}, `·  ${shown.votes}`),
  );
  const call = h(
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
    'Vote to see the results',
  );
  const card = h(
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
      },
      shown.title,
    ),
    answersOf(shown),
    h(
      'div',
      { display: 'flex', alignItems: 'center', justifyContent: 'space-between', marginTop: 'auto', paddingTop: 20 },
      author,
      call,
    ),
  );
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
    },
    header,
    card,
  );
}

async function drawCard(shown: Shown): Promise<Uint8Array<ArrayBuffer>> {
  const loaded = await fonts();
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

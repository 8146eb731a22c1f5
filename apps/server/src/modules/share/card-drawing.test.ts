import { directionOf, type UiLocale } from '@pollscope/contract';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { message } from '../../i18n/messages.js';
import { CardDrawer } from './card-drawer.js';
import { CARD_WIDTH } from './card-image.js';
import { shownVotes, type Shown } from './wording.js';

/** What a picture shows of a multiple-choice question, its frame in `locale`. */
const shownIn = (locale: UiLocale, title: string, choices: string[], author: string): Shown => ({
  id: 1,
  qid: 1,
  title,
  choices,
  scale: null,
  tag: null,
  author,
  votes: shownVotes(47, locale),
  call: message(locale, 'share.card.call'),
  direction: directionOf(locale),
});

/** The same text in characters no font draws (private use): each an empty box, as a script without a font shows. */
const tofu = (text: string) => text.replace(/\S/gu, '\uE000');

/** The pixels of a PNG as resvg writes it (8-bit RGBA, not interlaced): `at(x, y)` is [r, g, b, a]. */
function pixels(png: Buffer): { at: (x: number, y: number) => number[] } {
  const width = png.readUInt32BE(16);
  expect([png[24], png[25], png[28]]).toEqual([8, 6, 0]);
  const chunks: Buffer[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    if (png.toString('latin1', offset + 4, offset + 8) === 'IDAT')
      chunks.push(png.subarray(offset + 8, offset + 8 + length));
    offset += length + 12;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * 4;
  const rows: Buffer[] = [];
  for (let y = 0; y * (stride + 1) < raw.length; y += 1) {
    const filter = raw[y * (stride + 1)];
    const row = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    const above = rows[y - 1] ?? Buffer.alloc(stride);
    for (let i = 0; i < stride; i += 1) {
      const left = i >= 4 ? row[i - 4] : 0;
      const up = above[i];
      const upLeft = i >= 4 ? above[i - 4] : 0;
      const paeth = () => {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      };
      const predicted = [0, left, up, (left + up) >> 1, filter === 4 ? paeth() : 0][filter];
      row[i] = (row[i] + predicted) & 0xff;
    }
    rows.push(row);
  }
  return { at: (x, y) => [...rows[y].subarray(x * 4, x * 4 + 4)] };
}

/** Whether the logo's violet square is where the picture's top-left (or top-right) corner is. */
function logoAt(png: Buffer, side: 'left' | 'right'): boolean {
  const [r, g, b] = pixels(png).at(side === 'left' ? 70 : CARD_WIDTH - 70, 50);
  return b > 200 && r < 150 && g < 100;
}

// Each test waits for pictures from the drawing thread, which loads the drawing library and its fonts first.
describe('the drawing of a picture', { timeout: 90_000 }, () => {
  const drawer = new CardDrawer();
  afterAll(() => drawer.close());

  it('draws a Japanese question, and a frame in Japanese, in Japanese letters, not in empty boxes', async () => {
    const title = '朝、仕事の前に飲むのは紅茶とコーヒーのどちらですか？';
    const japanese = shownIn('ja', title, ['紅茶', 'コーヒー'], '花子');
    const [drawn, boxes, frameInBoxes] = await Promise.all([
      drawer.draw(shownIn('en', title, ['Tea', 'Coffee'], 'Alice')),
      drawer.draw(shownIn('en', tofu(title), ['Tea', 'Coffee'], 'Alice')),
      drawer.draw({ ...japanese, votes: tofu(japanese.votes), call: tofu(japanese.call) }),
    ]);
    expect(drawn.equals(boxes)).toBe(false);
    expect((await drawer.draw(japanese)).equals(frameInBoxes)).toBe(false);
  });

  it('draws an Arabic question in Arabic letters, and a frame in Arabic from right to left', async () => {
    const title = 'هل تشرب الشاي أم القهوة في الصباح؟';
    const arabic = shownIn('ar', title, ['الشاي', 'القهوة'], 'ليلى');
    const [inArabic, inBoxes, inEnglish] = await Promise.all([
      drawer.draw(arabic),
      drawer.draw({ ...arabic, title: tofu(title), call: tofu(arabic.call) }),
      drawer.draw(shownIn('en', title, ['الشاي', 'القهوة'], 'ليلى')),
    ]);
    expect(inArabic.equals(inBoxes)).toBe(false);
    // The logo, first in the frame, is on the right in Arabic, on the left in English.
    expect(logoAt(inArabic, 'right')).toBe(true);
    expect(logoAt(inArabic, 'left')).toBe(false);
    expect(logoAt(inEnglish, 'left')).toBe(true);
  });
});

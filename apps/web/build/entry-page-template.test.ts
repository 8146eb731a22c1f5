import { describe, expect, it } from 'vitest';
import { partsOf, type EntryPageTemplate } from './entry-page-template.ts';

/** A page as the build writes it: Vite's tags and the first script in its head. */
const page = `<!doctype html>
<html lang="en" class="app">
  <head>
    <meta charset="UTF-8" />
    <script>start("</head>")</script>
    <title>POLLSCOPE</title>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-1.js">
    <link rel="stylesheet" crossorigin href="/assets/global-1.css">
    <link rel="preload" as="style" crossorigin href="/assets/frame-1.css">
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

/** The page a template gives with its slots as the build found them: the language the server writes, the rest empty. */
const asBuilt = (parts: EntryPageTemplate['parts']) =>
  parts
    .map((part) => {
      if (typeof part === 'string') return part;
      if (part.slot === 'language') return 'lang="en"';
      if (part.slot === 'inline-script') return `<script>${part.code}</script>`;
      return 'tag' in part ? part.tag : '';
    })
    .join('');

describe('the entry page’s template', () => {
  it('is the page cut where the server writes, and gives it back as it was', () => {
    const parts = partsOf(page);
    expect(asBuilt(parts)).toBe(page);
    expect(parts.filter((part) => typeof part !== 'string')).toEqual([
      { slot: 'language' },
      { slot: 'first-screen-data' },
      { slot: 'inline-script', code: 'start("</head>")' },
      { slot: 'app-file', tag: '<script type="module" crossorigin src="/assets/index-1.js"></script>' },
      { slot: 'app-file', tag: '<link rel="modulepreload" crossorigin href="/assets/react-1.js">' },
      {
        slot: 'style-sheet',
        href: '/assets/global-1.css',
        tag: '<link rel="stylesheet" crossorigin href="/assets/global-1.css">',
      },
      { slot: 'app-file', tag: '<link rel="preload" as="style" crossorigin href="/assets/frame-1.css">' },
      { slot: 'head-end' },
      { slot: 'first-screen' },
      { slot: 'app-files' },
    ]);
    // The language's attributes are the server's to write; the element's others stay as they were.
    expect(parts.slice(0, 3)).toEqual([
      '<!doctype html>\n<html ',
      { slot: 'language' },
      ' class="app">\n  <head>\n    <meta charset="UTF-8" />',
    ]);
    expect(parts).toContain('</head>\n  <body>\n    <div id="root">');
  });

  it('is made only of a page the server can fill', () => {
    expect(() => partsOf(page.replace('<div id="root"></div>', ''))).toThrow('no root element');
    expect(() => partsOf(page.replace('<meta charset="UTF-8" />', ''))).toThrow('no <meta charset>');
    expect(() => partsOf(page.replace('<script>', '<script nonce="1">'))).toThrow('inline script with attributes');
  });
});

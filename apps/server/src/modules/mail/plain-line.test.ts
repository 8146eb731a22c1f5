import { describe, expect, it } from 'vitest';
import { plainLine } from './plain-line.js';
import { renderMail } from './templates.js';

const PHISHING = 'user\n\nURGENT: confirm at http://evil.example/x';

describe('what people type, as one plain line of a mail', () => {
  it('makes line breaks, tabs and other control characters one space', () => {
    expect(plainLine(PHISHING)).toBe('user URGENT: confirm at http://evil.example/x');
    expect(plainLine('a\r\nb\tc\u000bd\u0000e\u0085f\u2028g\u2029h')).toBe('a b c d e f g h');
    expect(plainLine('  \n Ann \t ')).toBe('Ann');
  });

  it('keeps no-break spaces, which break no line: French writes them before ? ! : and ;', () => {
    expect(plainLine('Vraiment\u202F? 30\u00A0minutes')).toBe('Vraiment\u202F? 30\u00A0minutes');
  });

  it('drops invisible formatting characters: bidirectional overrides and isolates, zero-width spaces, soft hyphens', () => {
    expect(plainLine('Ann\u202Egnp.exe')).toBe('Anngnp.exe');
    expect(plainLine('\u2066A\u2069\u200Bn\u200E\u200Fn\u00AD\uFEFF\u061C')).toBe('Ann');
    expect(plainLine('\u200B')).toBe('');
  });

  it('keeps letters, accents and emoji, a family of joined pictographs too', () => {
    expect(plainLine('Zoë Ångström 😀')).toBe('Zoë Ångström 😀');
    expect(plainLine('👨\u200D👩\u200D👧 and ❤\uFE0F\u200D🔥')).toBe('👨\u200D👩\u200D👧 and ❤\uFE0F\u200D🔥');
    expect(plainLine('a\u200Db')).toBe('ab');
  });

  it('replaces half a surrogate pair, which no mail can encode', () => {
    expect(plainLine('a\uD83Db')).toBe('a\uFFFDb');
  });

  it('is applied by the template to every text of a mail, escaped in the HTML part', () => {
    const mail = renderMail({
      title: `Hi ${PHISHING}`,
      paragraphs: [`Hi ${PHISHING}\u202E,`, 'Second\u200B paragraph.'],
      action: { label: 'Go\nnow', url: 'https://pollscope.example/x' },
      footer: 'Why\r\nyou get it <b>.',
    });
    expect(mail.text).toBe(
      [
        'Hi user URGENT: confirm at http://evil.example/x',
        'Hi user URGENT: confirm at http://evil.example/x,',
        'Second paragraph.',
        'Go now: https://pollscope.example/x',
        '-- ',
        'Pollscope. Why you get it <b>.\n',
      ].join('\n\n'),
    );
    expect(mail.html).toContain('>Hi user URGENT: confirm at http://evil.example/x,</p>');
    expect(mail.html).toContain('Why you get it &lt;b&gt;.');
    expect(mail.html).not.toMatch(/[\u200B\u202E]|user\n/);
  });
});

import { directionOf, type UiLocale } from '@pollscope/contract';
import { message } from '../../i18n/messages.js';
import { escapeHtml, pageStart } from '../../lib/html.js';
import { plainLine } from './plain-line.js';

/** Every text of a mail is one line: what people typed in it cannot break it into lines of its own. */
export interface MailContent {
  /** The language the mail is written in, for its HTML part's `lang` and `dir`; `en` when not said. */
  locale?: UiLocale;
  title: string;
  /** Each a line of its own in the text part, a paragraph in the HTML part. */
  paragraphs: string[];
  /** The button: what the mail asks the reader to do. */
  action?: { label: string; url: string };
  /** Why the reader gets this mail, and how to stop it. */
  footer: string;
}

const SITE_NAME = 'Pollscope';

/** The text part: what a client that shows no HTML, or a reader who prefers text, reads. */
function textPart({ locale = 'en', title, paragraphs, action, footer }: MailContent): string {
  return (
    [
      title,
      ...paragraphs,
      ...(action ? [message(locale, 'mail.actionLine', { label: action.label, url: action.url })] : []),
      '-- ',
      message(locale, 'mail.signature', { footer }),
    ].join('\n\n') + '\n'
  );
}

/**
 * The HTML part, in the site's colours. Many mail clients drop style sheets and external images,
 * so every style is inline and the layout a table. `color-scheme` tells clients that the mail
 * has dark colours of its own, which those that read style sheets take from the site's dark theme;
 * the others darken the light colours themselves, chosen to read either way.
 */
function htmlPart({ locale = 'en', title, paragraphs, action, footer }: MailContent): string {
  const paragraph = (text: string) =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:24px;">${escapeHtml(text)}</p>`;
  const button = action
    ? `<p style="margin:24px 0;"><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 24px;border-radius:8px;background:#5434e8;color:#ffffff;font-weight:600;text-decoration:none;">${escapeHtml(action.label)}</a></p>`
    : '';
  return `${pageStart(title, '<meta name="supported-color-schemes" content="light dark">\n', locale, directionOf(locale))}
<style>
:root { color-scheme: light dark; }
@media (prefers-color-scheme: dark) {
  .page { background: #100e17 !important; color: #ece9f5 !important; }
  .card { background: #1b1826 !important; border-color: #2f2a40 !important; }
  .site { color: #b2a5ff !important; }
  .footer { color: #a9a3bf !important; border-color: #2f2a40 !important; }
}
</style>
</head>
<body class="page" style="margin:0;padding:0;background:#f5f4fa;color:#1c1a26;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;">
<table role="presentation" class="page" width="100%" cellpadding="0" cellspacing="0" style="background:#f5f4fa;color:#1c1a26;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" class="card" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #e2dfee;border-radius:12px;">
<tr><td class="site" style="padding:24px 32px 0;font-size:20px;font-weight:700;color:#4b2ad9;">${SITE_NAME}</td></tr>
<tr><td style="padding:16px 32px 8px;">
<h1 style="margin:0 0 16px;font-size:22px;line-height:30px;">${escapeHtml(title)}</h1>
${paragraphs.map(paragraph).join('\n')}
${button}
</td></tr>
<tr><td class="footer" style="padding:16px 32px 24px;border-top:1px solid #e2dfee;font-size:13px;line-height:20px;color:#5d5775;">${escapeHtml(footer)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

/** A mail's text and HTML parts, alike in what they say, each of its texts made one plain line first. */
export function renderMail({ locale, title, paragraphs, action, footer }: MailContent): { text: string; html: string } {
  const plain: MailContent = {
    ...(locale ? { locale } : {}),
    title: plainLine(title),
    paragraphs: paragraphs.map(plainLine),
    ...(action ? { action: { label: plainLine(action.label), url: action.url } } : {}),
    footer: plainLine(footer),
  };
  return { text: textPart(plain), html: htmlPart(plain) };
}

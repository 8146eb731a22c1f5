/** Text written into HTML or XML, in an element or a quoted attribute, as text and never as markup. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * An HTML page's start, up to and with its title, for a page that follows the reader's light or dark theme; `meta` goes
 * before the title. `lang` is the language of the page's text; `dir` is said only when right to left.
 */
export function pageStart(title: string, meta = '', lang = 'en', dir: 'ltr' | 'rtl' = 'ltr'): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}"${dir === 'rtl' ? ' dir="rtl"' : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
${meta}<title>${escapeHtml(title)}</title>`;
}

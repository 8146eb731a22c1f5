import fs from 'node:fs';
import path from 'node:path';
import { ENTRY_PAGE_TEMPLATE_FILE, type EntryPageTemplate } from '../modules/web-app/entry-page.js';

/**
 * Writes the entry page's template into `dist`, a build of the web app made by a test, as the build would for a page
 * cut into `parts` whose first screen needs `firstScreenStyles` (apps/web/build/entry-page-template.ts).
 */
export function writeEntryPageTemplate(
  dist: string,
  parts: EntryPageTemplate['parts'],
  firstScreenStyles: string[] = [],
): void {
  const file = path.join(dist, ENTRY_PAGE_TEMPLATE_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ parts, firstScreenStyles } satisfies EntryPageTemplate));
}

/** The meta tag the server writes the site's public address (PUBLIC_URL) into. */
const PUBLIC_URL_META = 'meta[name="pollscope:public-url"]';

/**
 * The address links shared outside the app point to: the site's public one, or this page's where the server names none
 * (the dev server).
 */
export function publicUrl(): string {
  return document.querySelector<HTMLMetaElement>(PUBLIC_URL_META)?.content || window.location.origin;
}

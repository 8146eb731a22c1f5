import { APP_FILES_TEMPLATE_ID, FIRST_SCREEN_DATA_ID } from '@pollscope/contract';

let answers: Record<string, unknown> | undefined;

/**
 * The answers the server rendered a signed-in person's feed from, by API path, when it rendered it
 * in the page (the server's modules/web-app/first-screen.ts): the app starts from the same data, so its
 * first rendering is the server's. Null on any other page.
 */
export function serverRenderedAnswers(): Record<string, unknown> | null {
  const element = document.getElementById(FIRST_SCREEN_DATA_ID);
  if (!element?.textContent) return null;
  answers ??= JSON.parse(element.textContent) as Record<string, unknown>;
  return answers;
}

/** Drops the answers once the app's cache holds them: from then on they are older than what it has. */
export function forgetServerRenderedAnswers(): void {
  document.getElementById(FIRST_SCREEN_DATA_ID)?.remove();
  answers = undefined;
}

/** Adds the app's files the server set aside in the page (its entry script, preloads) to the page, to load now. */
export function loadAppFiles(): void {
  const template = document.getElementById(APP_FILES_TEMPLATE_ID);
  if (!(template instanceof HTMLTemplateElement)) return;
  for (const file of template.content.children) {
    // A new element rather than a copy: a script copied from a template never runs.
    const element = document.createElement(file.localName);
    for (const { name, value } of file.attributes) element.setAttribute(name, value);
    document.head.append(element);
  }
}

/**
 * Runs `run` once the feed the server rendered is on screen: the page parsed, then a frame painted
 * (a frame may come before the body is parsed, so the first frame alone is not enough).
 */
export function onceFeedOnScreen(run: () => void): void {
  const afterNextFrame = () => requestAnimationFrame(() => setTimeout(run));
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', afterNextFrame, { once: true });
  else afterNextFrame();
}

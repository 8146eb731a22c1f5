/**
 * What the service worker tells a window of the app: open `url` as the app's own navigation
 * would (a clicked notification). Shared by the worker and the page, so it names no type of either.
 */
export interface NavigateMessage {
  type: 'navigate';
  url: string;
}

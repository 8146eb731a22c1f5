import { feedScreenData, signedInFrameData } from './app/first-screen';
import { homePath } from './config/paths';
import { isSignedIn, keepSessionCookie } from './lib/auth-token';
import { startBeforeApp } from './lib/prefetch';
import { loadAppFiles, onceFeedOnScreen, serverRenderedAnswers } from './lib/server-rendered';

/** The feed screen's own code and styles, by their built names: the build knows them, this file does not. */
export interface FeedScreenFiles {
  modules: string[];
  styles: string[];
}

function preload(attributes: { rel: string; href: string; as?: string }): void {
  // As the app's own module scripts and styles are asked for, so that their requests find these.
  document.head.append(Object.assign(document.createElement('link'), { ...attributes, crossOrigin: '' }));
}

/**
 * The page's first script, which the build inlines at the top of index.html, self-contained, so
 * that it runs as the page is parsed, before any other file has arrived
 * (build/start-first-screen-early.ts). For a signed-in person opening the app at its start, the feed, it
 * starts the requests of the feed and of the frame around it, which the app takes over as its own
 * (lib/prefetch.ts), and the download of the feed screen's code and styles, beside the framework's
 * rather than once the framework has run.
 */
export function startFirstScreen({ modules, styles }: FeedScreenFiles): void {
  const preloadFeedScreen = () => {
    for (const href of modules) preload({ rel: 'modulepreload', href });
    for (const href of styles) preload({ rel: 'preload', as: 'style', href });
  };
  // The server rendered the feed in the page, from a session it holds valid: the rest waits until the feed is on
  // screen, then starts with the app's files, as anything done here would hold back the page's first frame.
  if (serverRenderedAnswers()) {
    onceFeedOnScreen(() => {
      keepSessionCookie();
      startBeforeApp(signedInFrameData.filter((path) => !(path in serverRenderedAnswers()!)));
      loadAppFiles();
      preloadFeedScreen();
    });
    return;
  }
  keepSessionCookie();
  if (!isSignedIn() || window.location.pathname !== homePath) return;
  startBeforeApp([...feedScreenData, ...signedInFrameData]);
  preloadFeedScreen();
}

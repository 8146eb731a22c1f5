import { feedScreenData } from './app/first-screen';
import { paths } from './config/paths';
import { isSignedIn } from './lib/auth-token';
import { prefetch } from './lib/prefetch';

/*
 * The page's first script, small and run as soon as it has arrived, while the framework is still
 * loading: a signed-in person opening the app at its start, the feed, gets the feed's requests and
 * the download of its screen's code and styles started at once, rather than once the framework
 * has run, and the feed's first page put in the data cache as soon as it comes. The feed's route
 * then finds them started or there (lib/prefetch.ts, and the module loaded once).
 * The build puts it first in index.html (vite.config.ts, startFirstScreenEarly).
 */
if (isSignedIn() && window.location.pathname === paths.home.getHref()) {
  feedScreenData.forEach(prefetch);
  // A failure is the router's to report, when it asks for the same modules.
  import('./app/routes/home').catch(() => undefined);
  import('./features/questions/api/get-feed').then(
    ({ keepStartedFeed }) => keepStartedFeed(),
    () => undefined,
  );
}

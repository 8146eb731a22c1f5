import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { UNSAFE_createBrowserHistory } from 'react-router';
import { App, startApp } from './app/router';
import { serverRenderedAnswers } from './lib/server-rendered';
import './styles/global.css';

// React Router's own browser history, as its BrowserRouter makes it; the app's router (lib/navigation.tsx) needs it.
const history = UNSAFE_createBrowserHistory({ v5Compat: true });

// Only the built app has a service worker: one in front of the dev server would keep modules it serves afresh. It
// starts once the page has loaded and the browser is idle, so that keeping the app's files never holds the first screen
// back.
if (import.meta.env.PROD) {
  const startWorker = () =>
    void import('./lib/service-worker').then(({ startServiceWorker }) => startServiceWorker(history));
  const whenIdle = () =>
    'requestIdleCallback' in window
      ? requestIdleCallback(startWorker, { timeout: 5000 })
      : setTimeout(startWorker, 1000);
  // A page with the feed the server rendered loads this code once it has shown the feed, maybe after the page's load.
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

const root = createRoot(document.getElementById('root')!);
const start = () =>
  root.render(
    <StrictMode>
      <App history={history} />
    </StrictMode>,
  );
// The server rendered the feed in the page: it stays until the app can show the same at once, its frame's and screen's
// code and its catalog loaded, rather than a loading indicator in its place. A failure is the app's to show.
if (serverRenderedAnswers()) void startApp(history.location).finally(start);
else start();

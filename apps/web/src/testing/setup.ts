import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadMessages } from '../i18n/catalogs';
import { LANGUAGE_COOKIE } from '../i18n/locales';
import { forgetPrefetched } from '../lib/prefetch';

// The app downloads its language's catalog beside the frame's code; a test's screen has English's from its first render.
await loadMessages('en');

// Screens load lazily; the first import of a route module in a test run can take over a second.
configure({ asyncUtilTimeout: 4000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  forgetPrefetched();
  // A test that switched the language leaves the next one in English, as a new visitor's browser would be.
  document.cookie = `${LANGUAGE_COOKIE}=; Max-Age=0; Path=/`;
  document.documentElement.removeAttribute('lang');
  document.documentElement.removeAttribute('dir');
});

import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import { catalogs } from './build/catalogs.ts';

/** Component tests in jsdom, beside the code; the browser tests in e2e/ have their own config. */
export default defineConfig({
  plugins: [react(), catalogs()],
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'e2e/**'],
    setupFiles: ['src/testing/setup.ts'],
    restoreMocks: true,
    // npm test runs these beside lint and the type-check on two cores: a test that types a few sentences took over the
    // default 5 s there.
    testTimeout: 20_000,
    // One jsdom and one import of the app per worker for all its files (67 s isolated, 19 s shared): every test
    // renders into a fresh tree, and setup.ts and these two options put back what a test changed.
    isolate: false,
    unstubGlobals: true,
  },
});

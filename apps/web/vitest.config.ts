import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

/** Component tests in jsdom, beside the code; the browser tests in e2e/ have their own config. */
export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    exclude: [...configDefaults.exclude, 'e2e/**'],
    setupFiles: ['src/testing/setup.ts'],
    restoreMocks: true,
    // One jsdom and one import of the app per worker for all its files (67 s isolated, 19 s shared): every test
    // renders into a fresh tree, and setup.ts and these two options put back what a test changed.
    isolate: false,
    unstubGlobals: true,
  },
});

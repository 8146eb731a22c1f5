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
  },
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** What fastify-plugin attaches to the function it wraps: Fastify reads the name and the dependencies from it. */
const PLUGIN_META = Symbol.for('plugin-meta');
const SKIP_OVERRIDE = Symbol.for('skip-override');

const folders = ['external', 'app'] as const;
const pluginFiles = folders.flatMap((folder) =>
  fs
    .readdirSync(path.join(import.meta.dirname, folder))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => ({ folder, file, name: path.basename(file, '.ts') })),
);

describe('the plugins', () => {
  it('live in plugins/external/ and plugins/app/', () => {
    expect(pluginFiles.filter(({ folder }) => folder === 'external').length).toBeGreaterThan(0);
    expect(pluginFiles.filter(({ folder }) => folder === 'app').length).toBeGreaterThan(0);
  });

  it.each(pluginFiles.map((plugin) => [`${plugin.folder}/${plugin.file}`, plugin] as const))(
    '%s exports a plugin wrapped by fastify-plugin, named as its file',
    async (_, { folder, file, name }) => {
      const exports: Record<string, unknown> = await import(
        /* @vite-ignore */ path.join(import.meta.dirname, folder, file)
      );
      const plugins = Object.values(exports).filter((value) => typeof value === 'function' && PLUGIN_META in value);
      expect(plugins, `${folder}/${file}: one plugin`).toHaveLength(1);
      const [plugin] = plugins as Record<symbol, unknown>[];
      expect(plugin[SKIP_OVERRIDE], `${folder}/${file}: it decorates the app, not a context of its own`).toBe(true);
      expect((plugin[PLUGIN_META] as { name?: string }).name).toBe(name);
    },
  );
});

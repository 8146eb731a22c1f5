/** What the entry chunk itself needs, which must stay in it rather than add a chunk to the first load. */
const entryModules =
  /\/(apps\/web\/src\/(main\.tsx|app\/(router\.tsx|route-handle\.ts|first-screen\.ts)|config\/paths\.ts|lib\/(auth-token|prefetch|destination|server-rendered|tracked-promise)\.ts|lib\/(navigation|lazy-component)\.tsx|components\/ui\/(loading|error-boundary)\.tsx)|packages\/contract\/src\/(paths|web-page)\.ts)$/;

/** A chunk of the modules matching `pattern`, leaving out those of the entry chunk. */
function chunkGroup(name: string | ((id: string) => string), pattern: RegExp, debugName = String(name)) {
  return { name, debugName, test: (id: string) => pattern.test(id) && !entryModules.test(id) };
}

/**
 * Shared code in a few chunks rather than one per small module: fewer requests when a screen
 * opens, and a shorter list of what each screen preloads in the entry chunk. The data library
 * changes least, so it gets a chunk of its own that stays cached.
 */
export const chunkGroups = [
  chunkGroup('data', /\/node_modules\/(swr|use-sync-external-store|dequal)\//),
  chunkGroup('intl', /\/node_modules\/(react-intl|intl-messageformat|@formatjs)\//),
  chunkGroup('shared', /\/(apps\/web\/src\/(components|hooks|lib)|packages\/contract\/src)\//),
  chunkGroup(
    (id) => `feature-${/\/src\/features\/([^/]+)\//.exec(id)![1]}`,
    /\/apps\/web\/src\/features\//,
    'features',
  ),
];

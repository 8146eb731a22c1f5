import type { FastifyInstance } from 'fastify';

/**
 * Every API call of the app as `METHOD /api/path/:param` (no trailing slash), read from its
 * router, so that a test walking them cannot leave a new one out. The API documentation and
 * HEAD, which Fastify adds to every GET, are left out.
 */
export function apiRoutesOf(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const path: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!match) continue;
    path.length = match[1].length / 4;
    path.push(match[2]);
    for (const method of match[3]?.split(', ') ?? []) routes.push(`${method} ${path.join('')}`);
  }
  return routes.filter((route) => /^(GET|POST|DELETE) \/api\//.test(route) && !route.startsWith('GET /api/docs'));
}

/** The method and path of a route named as `apiRoutesOf` names it. */
export function routeParts(route: string): { method: 'GET' | 'POST' | 'DELETE'; path: string } {
  const match = /^(GET|POST|DELETE) (\S+)$/.exec(route);
  if (!match) throw new Error(`Not a route of the API: ${route}`);
  return { method: match[1] as 'GET' | 'POST' | 'DELETE', path: match[2] };
}

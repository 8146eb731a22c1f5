import { api } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConnection, type RawConnection } from '../../test/raw-connection.js';
import { createTestApp, type TestContext } from '../../test/helper.js';
import { metricValue } from '../../test/metrics-text.js';

let ctx: TestContext;
let baseUrl: string;
const connections: RawConnection[] = [];
beforeAll(async () => {
  ctx = await createTestApp({ maxConnections: 4, overloadHeapMegabytes: 0 });
  baseUrl = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const connection of connections) connection.close();
  await ctx.close();
});

async function connect(): Promise<RawConnection> {
  const connection = await openConnection(baseUrl);
  connections.push(connection);
  return connection;
}

describe('connections past MAX_CONNECTIONS', () => {
  it('are closed as soon as they are accepted, while those open are still answered, and taken again once some close', async () => {
    // A load balancer's connection, kept alive, and three requests that never finish.
    const kept = await connect();
    expect((await kept.get(api.health)).status).toBe(200);
    const halfSent = await Promise.all([1, 2, 3].map(() => connect()));
    for (const connection of halfSent) connection.sendHalf(api.health);

    const refused = await connect();
    refused.sendHalf(api.health);
    expect(await refused.closed).toBe('');

    const metrics = (await kept.get('/metrics')).body;
    expect({
      open: metricValue(metrics, 'pollscope_connections_open'),
      refused: metricValue(metrics, 'pollscope_connections_refused_total'),
    }).toEqual({ open: 4, refused: 1 });
    expect((await kept.get(api.health)).status).toBe(200);

    for (const connection of halfSent) connection.close();
    // The instance hears of the closes in a later turn: asked on the kept connection until it has.
    while ((metricValue((await kept.get('/metrics')).body, 'pollscope_connections_open') ?? 0) > 1);
    const next = await connect();
    expect((await next.get(api.health)).status).toBe(200);
  });
});

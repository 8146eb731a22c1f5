import { normalizeIP } from '@fastify/rate-limit';
import { createHash } from 'node:crypto';
import { isIPv4 } from 'node:net';
import type { Db } from '../../db/index.js';

const HOUR_MS = 3600 * 1000;

/**
 * The network an address belongs to, hashed: its IPv4 /24 or IPv6 /48 (an IPv4-mapped address as IPv4). Truncated,
 * so that what is kept names a network of at least 256 addresses, never a household's; hashed, so that it serves only
 * to compare people, never to be read as an address.
 */
export function networkOf(address: string): string {
  const normal = normalizeIP(address, 48);
  const network = isIPv4(normal) ? `${normal.split('.').slice(0, 3).join('.')}.0/24` : `${normal}/48`;
  return createHash('sha256').update(network).digest('base64url');
}

/** Notes the network a person registered from, in the registration's transaction. */
export async function noteRegisteredNetwork(trx: Db, userId: number, address: string): Promise<void> {
  await trx
    .updateTable('users')
    .set({ registered_network: networkOf(address) })
    .where('id', '=', userId)
    .execute();
}

/** One reporter of a target: when and from which network they registered. */
export interface Registration {
  created_at: string;
  registered_network: string | null;
}

/**
 * Of a target's reporters, how many registered from the same network as another of them, and how many within an hour
 * of another of them: the marks of accounts made together to report together.
 */
export function registeredTogether(reporters: readonly Registration[]): { network: number; hour: number } {
  const byNetwork = new Map<string, number>();
  for (const { registered_network: network } of reporters)
    if (network !== null) byNetwork.set(network, (byNetwork.get(network) ?? 0) + 1);
  const network = [...byNetwork.values()].filter((count) => count > 1).reduce((sum, count) => sum + count, 0);
  const times = reporters.map((reporter) => Date.parse(reporter.created_at)).sort((a, b) => a - b);
  const hour = times.filter(
    (time, index) =>
      (index > 0 && time - times[index - 1] <= HOUR_MS) ||
      (index < times.length - 1 && times[index + 1] - time <= HOUR_MS),
  ).length;
  return { network, hour };
}

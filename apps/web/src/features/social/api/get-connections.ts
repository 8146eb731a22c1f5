import { api, type Connection } from '@pollscope/contract';
import useSWR from 'swr';

export const connectionsKey = api.connections;

export function useConnections() {
  return useSWR<Connection[]>(connectionsKey);
}

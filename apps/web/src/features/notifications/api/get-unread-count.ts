import { UNREAD_EVENT, type Unread } from '@pollscope/contract';
import { useEffect } from 'react';
import { apiPath } from '../../../lib/api-path';
import { useApiData } from '../../../lib/api-data';
import { watchEventStream } from '../../../lib/live-stream';

/** Asked without the event-stream Accept header, the live endpoint answers the count once as JSON. */
export const unreadKey = apiPath('/api/notifications/live/');

/** The viewer's unread count, kept current from the live stream for as long as it is shown. */
export function useUnreadCount(): number | undefined {
  const { data, mutate } = useApiData(unreadKey);
  useEffect(
    () =>
      watchEventStream(unreadKey, (event) => {
        if (event.event === UNREAD_EVENT) void mutate(JSON.parse(event.data) as Unread, { revalidate: false });
      }),
    [mutate],
  );
  return data?.unread;
}

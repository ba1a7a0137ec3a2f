/**
 * A record just submitted to the tax service settles within seconds to minutes: while it is settling its
 * screen asks again soon, then less and less often (3, 5, 10, 20, 30 s, then every 60 s — the steps the
 * server job polls the tax service by), and stops once it has settled.
 */
import type { Query } from '@tanstack/react-query';
import { settlePollDelayMs } from '@zhyy/shared';

export function refetchWhileSettling<T>(settling: (data: T) => boolean) {
  let since = -1;
  return (query: Query<T, Error, T, readonly unknown[]>): number | false => {
    const data = query.state.data;
    if (data === undefined || !settling(data)) {
      since = -1;
      return false;
    }
    // Count the polls from the answer that first showed it settling.
    if (since < 0) since = query.state.dataUpdateCount;
    return settlePollDelayMs(query.state.dataUpdateCount - since);
  };
}

/**
 * Long loops of database work on the request thread give the event loop its turn (issue 30). On SQLite
 * every query runs synchronously (better-sqlite3) and every `await` on it resolves as a microtask, so a loop
 * of awaited queries never reaches the event loop: no socket is read, no timer fires and no other user is
 * answered until the loop ends (a 12-month 采集 held the whole server for 30.8 s, even its own "started"
 * answer). `breathe()` in such a loop waits for the event loop (setImmediate) once `sliceMs` of work have
 * passed since the last turn, so other requests are served between two steps; on PostgreSQL it costs
 * nothing more (its queries already wait on the socket).
 */
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** The work done between two turns of the event loop, in ms. */
export const BREATH_SLICE_MS = 10;

export class Breather {
  private since = performance.now();

  constructor(private readonly sliceMs = BREATH_SLICE_MS) {}

  /** Yields to the event loop when the slice is used up (call it between two steps of the loop). */
  async breathe(): Promise<void> {
    if (performance.now() - this.since < this.sliceMs) return;
    await nextTurn();
    this.since = performance.now();
  }
}

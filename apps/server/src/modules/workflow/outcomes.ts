/**
 * How other areas learn what became of the instance they started for a business record. They
 * register one handler per record type; the engine calls it inside the transaction of the action,
 * so the record and the instance change together (a handler that throws refuses the action).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * complete: the last approval passed; returned: sent back to the starter (the start node);
 * withdrawn: the starter took it back to draft; deleted: the draft or (by an administrator) the instance was deleted.
 */
export type OutcomeKind = 'complete' | 'returned' | 'withdrawn' | 'deleted';

export interface OutcomeEvent {
  kind: OutcomeKind;
  workId: number;
  flowNo: string;
  recordType: string;
  recordId: string;
  /** Who caused it ('系统' when the flow reached its end). */
  actorName: string;
  /** The opinion or reason given. */
  opinion: string;
  /** The transaction of the action: write the record's new state through it. */
  trx: Kysely<Database>;
}

export type OutcomeHandler = (event: OutcomeEvent) => Promise<void> | void;

export class OutcomeRegistry {
  private readonly handlers = new Map<string, OutcomeHandler[]>();

  on(recordType: string, handler: OutcomeHandler): () => void {
    const list = this.handlers.get(recordType) ?? [];
    list.push(handler);
    this.handlers.set(recordType, list);
    return () => {
      const now = this.handlers.get(recordType) ?? [];
      this.handlers.set(
        recordType,
        now.filter((h) => h !== handler),
      );
    };
  }

  async emit(event: OutcomeEvent): Promise<void> {
    for (const h of this.handlers.get(event.recordType) ?? []) await h(event);
  }
}

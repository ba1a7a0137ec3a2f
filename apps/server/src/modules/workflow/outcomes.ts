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

/** What became of an instance of a template (`onFlow`): every instance, started for a record or not. */
export interface FlowOutcomeEvent {
  kind: OutcomeKind;
  workId: number;
  flowNo: string;
  starterId: string;
  starterName: string;
  /** The form's values as they stand at this outcome. */
  form: Record<string, unknown>;
  /** When it happened (the completion time for complete). */
  at: string;
  /** Who caused it ('系统' when the flow reached its end). */
  actorName: string;
  /** The opinion or reason given. */
  opinion: string;
  /** The transaction of the action: write the record's new state through it. */
  trx: Kysely<Database>;
}

/** What became of the instance started for a business record (`on`). */
export interface OutcomeEvent extends FlowOutcomeEvent {
  recordType: string;
  recordId: string;
}

export type OutcomeHandler = (event: OutcomeEvent) => Promise<void> | void;
export type FlowOutcomeHandler = (event: FlowOutcomeEvent) => Promise<void> | void;

export class OutcomeRegistry {
  private readonly handlers = new Map<string, OutcomeHandler[]>();
  private readonly flowHandlers = new Map<string, FlowOutcomeHandler[]>();

  on(recordType: string, handler: OutcomeHandler): () => void {
    return add(this.handlers, recordType, handler);
  }

  /** Outcomes of every instance of a template (e.g. KP01 started from 发起申请, with no record behind it). */
  onFlow(flowNo: string, handler: FlowOutcomeHandler): () => void {
    return add(this.flowHandlers, flowNo, handler);
  }

  async emit(event: FlowOutcomeEvent & { recordType: string | null; recordId: string | null }): Promise<void> {
    const { recordType, recordId, ...flow } = event;
    for (const h of this.flowHandlers.get(event.flowNo) ?? []) await h(flow);
    if (recordType && recordId) for (const h of this.handlers.get(recordType) ?? []) await h({ ...flow, recordType, recordId });
  }
}

function add<H>(map: Map<string, H[]>, key: string, handler: H): () => void {
  map.set(key, [...(map.get(key) ?? []), handler]);
  return () => map.set(key, (map.get(key) ?? []).filter((h) => h !== handler));
}

/** Signing events in the pool's history: the pool's own addEvent, with the kinds signing writes. */
import type { EventKind } from '../pool/events.js';

export { addEvent as addSignEvent } from '../pool/events.js';
export type SignEventKind = Extract<EventKind, 'sign' | 'sign-failed' | 'revoke' | 'allocate'>;

import { describe, expect, it } from 'vitest';
import {
  INVOICE_TRANSITIONS,
  InvoiceStatus,
  RED_CONFIRM_TRANSITIONS,
  RedConfirmState,
  invoiceRefusal,
  invoiceTransition,
  redConfirmAllowed,
  redConfirmRefusal,
  type InvoiceAction,
} from '../src/index.js';

const S = InvoiceStatus;
/** The whole table, written out: action → from → to. */
const EXPECTED: Record<InvoiceAction, Array<[number, number]>> = {
  issue: [[S.none, S.creating]],
  progress: [[S.creating, S.signing]],
  succeed: [[S.creating, S.created], [S.signing, S.created]],
  fail: [[S.creating, S.creationFailed], [S.signing, S.creationFailed]],
  signFail: [[S.creating, S.signFailed], [S.signing, S.signFailed]],
  resubmit: [[S.creationFailed, S.creating]],
  reissue: [[S.signFailed, S.creating]],
  cancel: [[S.created, S.canceling]],
  cancelDone: [[S.canceling, S.cancelled]],
  cancelUndone: [[S.canceling, S.created]],
  invalidate: [[S.none, S.none], [S.creationFailed, S.creationFailed]],
  edit: [[S.none, S.none], [S.creationFailed, S.creationFailed]],
};

describe('invoice state machine', () => {
  for (const action of Object.keys(INVOICE_TRANSITIONS) as InvoiceAction[]) {
    it(`${action}: allowed exactly from its states, refused from every other`, () => {
      const allowed = new Map(EXPECTED[action]);
      for (const from of S.values) {
        const to = invoiceTransition(action, from);
        if (allowed.has(from)) expect(to).toBe(allowed.get(from));
        else {
          expect(to).toBeNull();
          expect(invoiceRefusal(action, from)).toContain(`「${S.label(from)}」`);
        }
      }
    });
  }

  it('never leaves cancelled, and never polls past 22 or 24', () => {
    const moves = Object.keys(INVOICE_TRANSITIONS) as InvoiceAction[];
    expect(moves.filter((a) => invoiceTransition(a, S.cancelled) !== null)).toEqual([]);
    for (const a of ['progress', 'succeed', 'fail', 'signFail'] as const) {
      expect(invoiceTransition(a, S.creationFailed)).toBeNull();
      expect(invoiceTransition(a, S.signFailed)).toBeNull();
    }
  });
});

describe('red-letter confirmation moves', () => {
  const R = RedConfirmState;
  const EXPECTED_FROM: Record<keyof typeof RED_CONFIRM_TRANSITIONS, string[]> = {
    save: [R.draft, R.applyFailed],
    apply: [R.draft, R.applyFailed],
    applied: [R.applying],
    confirm: [R.buyerAwaitingSeller],
    refuse: [R.buyerAwaitingSeller],
    cancel: [R.draft, R.applyFailed, R.sellerAwaitingBuyer],
  };
  for (const move of Object.keys(EXPECTED_FROM) as Array<keyof typeof EXPECTED_FROM>) {
    it(`${move}: allowed only from ${EXPECTED_FROM[move].join(', ')}`, () => {
      for (const from of R.values) {
        expect(redConfirmAllowed(move, from)).toBe(EXPECTED_FROM[move].includes(from));
        if (!EXPECTED_FROM[move].includes(from)) expect(redConfirmRefusal(move, from)).toContain(R.label(from));
      }
    });
  }
  it('confirm leads to 04 and refuse to 06', () => {
    expect(RED_CONFIRM_TRANSITIONS.confirm.to).toBe('04');
    expect(RED_CONFIRM_TRANSITIONS.refuse.to).toBe('06');
    expect(RED_CONFIRM_TRANSITIONS.cancel.to).toBe('08');
  });
});

/** Display helpers of the workflow screens: Asia/Shanghai times, money in 元, state colours. */
import { FlowState, formatShanghai } from '@zhyy/shared';

export const WORKFLOW_KEY = ['workflow'] as const;

/** An instant as YYYY-MM-DD HH:mm in Asia/Shanghai, like every other time shown. */
export function formatTime(iso: string | null | undefined): string {
  return formatShanghai(iso, 'YYYY-MM-DD HH:mm');
}

export function stateColour(state: number): string {
  switch (state) {
    case FlowState.draft:
      return 'default';
    case FlowState.running:
      return 'processing';
    case FlowState.complete:
      return 'success';
    case FlowState.returned:
      return 'warning';
    case FlowState.shifted:
      return 'cyan';
    case FlowState.deleted:
      return 'error';
    default:
      return 'default';
  }
}

/** 分 -> 元 for an input; 元 -> 分 back (rounded to a whole 分). */
export const fenToYuan = (fen: unknown) => (typeof fen === 'number' ? fen / 100 : undefined);
export const yuanToFen = (yuan: unknown) => (typeof yuan === 'number' && Number.isFinite(yuan) ? Math.round(yuan * 100) : undefined);

export const fileSize = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

/**
 * Runs a user action whose failure is already visible (the request layer's error toast, or the
 * form's messages beside its fields), so that nothing surfaces as an unhandled rejection.
 */
export async function settled(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (e) {
    const shown = e instanceof Error ? e.name === 'ApiError' || 'kind' in e : typeof e === 'object' && e !== null && 'errorFields' in e;
    if (!shown) throw e;
  }
}

/** The settings' query key and the change every tab of 报销设置 runs (CostSettingPage.tsx and its tabs). */
import { useQueryClient } from '@tanstack/react-query';
import type { ReimbSettingView } from '@zhyy/shared';

export const REIMB_SETTING_KEY = ['reimbursement', 'setting'] as const;

/** Runs a change; its answer (the settings now) replaces the cached ones. Refusals are shown by the API client. */
export function useSettingChange() {
  const qc = useQueryClient();
  return async (run: () => Promise<{ r?: ReimbSettingView | unknown }>): Promise<boolean> => {
    try {
      const a = await run();
      if (a.r && typeof a.r === 'object' && 'categories' in (a.r as object)) qc.setQueryData(REIMB_SETTING_KEY, a.r);
      else void qc.invalidateQueries({ queryKey: REIMB_SETTING_KEY });
      return true;
    } catch {
      return false;
    }
  };
}

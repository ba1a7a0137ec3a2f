/**
 * The panel a work item (features/workflow WorkDrawer) shows for the business record behind it, by its
 * RecordType: e.g. the reimbursement bill of an FY01 instance. The page table (router/pages.ts) registers
 * them, so that the workflow feature imports no other feature (docs/architecture.md, "Layers and the
 * dependency check").
 */
import type { ComponentType } from 'react';

export interface RecordPanelProps {
  recordId: string;
  /** Changes when the work item was read again (the panel reads its record again). */
  version?: number;
}

const panels = new Map<string, ComponentType<RecordPanelProps>>();

export function registerRecordPanel(recordType: string, panel: ComponentType<RecordPanelProps>): void {
  panels.set(recordType, panel);
}

/** The panel of a record type; undefined when none is registered (the work item shows its form only). */
export function recordPanel(recordType: string | null | undefined): ComponentType<RecordPanelProps> | undefined {
  return recordType ? panels.get(recordType) : undefined;
}

import { Tag } from 'antd';
import { FlowState } from '@zhyy/shared';
import { stateColour } from './workflowFormat';

/** A flow state as a coloured tag. */
export function StateTag({ state }: { state: number }) {
  return <Tag color={stateColour(state)}>{FlowState.label(state)}</Tag>;
}

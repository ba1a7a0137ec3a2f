/**
 * The facts of the state machine (transitions.ts) for one person and one instance, gathered in one
 * place for the engine (before acting) and the detail view (to show only the buttons that work).
 */
import type { FlowDefinition, FlowStateValue } from '@zhyy/shared';
import type { EngineRepo, InstanceRow } from './repo.js';
import type { Facts } from './transitions.js';

type OpenItem = Awaited<ReturnType<EngineRepo['openItems']>>[number];

export async function gatherFacts(
  repo: EngineRepo,
  inst: InstanceRow,
  def: FlowDefinition,
  who: { id: string; roles: readonly string[] },
  open: readonly OpenItem[],
  now: Date,
): Promise<Facts> {
  const workId = Number(inst.work_id);
  const startId = def.nodes.find((n) => n.type === 'start')?.id;
  const [last, participant, lastPressAt] = await Promise.all([repo.lastMove(workId), repo.isParticipant(workId, who.id, inst.starter_id), repo.lastPressAt(workId)]);
  return {
    state: inst.state as FlowStateValue,
    actorId: who.id,
    actorRoles: who.roles,
    starterId: inst.starter_id,
    holdsOpenItem: open.some((i) => i.handler_id === who.id && i.node_id === inst.node_id),
    atStart: inst.node_id === startId,
    participant,
    lastMove: last ? { action: last.action, actorId: last.actor_id, fromStart: last.node_id === startId } : null,
    lastPressAt,
    now,
  };
}

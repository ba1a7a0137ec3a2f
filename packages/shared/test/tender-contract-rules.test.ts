import { describe, expect, it } from 'vitest';
import { isActiveProject, managerConflict, managerConflictMessage, percentBp, ProjectState, type ManagedProject } from '../src/tender-contract-rules.js';

const p = (id: string, over: Partial<ManagedProject> = {}): ManagedProject => ({ id, code: `XM-${id}`, name: `项目${id}`, managerId: 'u1', managerRegistered: true, state: ProjectState.building, ...over });

describe('the registered manager rule', () => {
  it('refuses a registered manager already leading another active project, naming it', () => {
    const other = p('2');
    expect(managerConflict(p('1'), [other])).toBe(other);
    expect(managerConflict(p('1'), [p('2', { state: ProjectState.suspended })])?.id).toBe('2');
    expect(managerConflictMessage('张三', other)).toBe('张三是注册建造师，已担任在建项目「XM-2 项目2」的项目经理，不能同时负责两个在建项目');
  });
  it('lets through finished projects, unregistered managers, other people and the project itself', () => {
    expect(managerConflict(p('1'), [p('2', { state: ProjectState.finished })])).toBeNull();
    expect(managerConflict(p('1', { state: ProjectState.finished }), [p('2')])).toBeNull();
    expect(managerConflict(p('1', { managerRegistered: false }), [p('2')])).toBeNull();
    expect(managerConflict(p('1'), [p('2', { managerRegistered: false })])).toBeNull();
    expect(managerConflict(p('1'), [p('2', { managerId: 'u2' })])).toBeNull();
    expect(managerConflict(p('1', { managerId: null }), [p('2', { managerId: null })])).toBeNull();
    expect(managerConflict(p('1'), [p('1')])).toBeNull();
  });
  it('knows the active states and computes percentages in basis points', () => {
    expect(isActiveProject(ProjectState.building)).toBe(true);
    expect(isActiveProject(ProjectState.finished)).toBe(false);
    expect(percentBp(1, 3)).toBe(3333);
    expect(percentBp(5, 0)).toBeNull();
  });
});

/**
 * 投标管理 › 合同与项目 (issue 17): a project's state and the registered-manager rule. A registered
 * constructor (注册建造师) may lead one active project at a time (在建 or 停工: a suspended project still
 * holds its manager; a finished one frees them). The database enforces it with a partial unique index
 * (migration 0036); the service refuses first, naming the other project.
 */
import { defineEnum } from './enum.js';

export const ProjectState = defineEnum({
  building: [1, '在建'],
  suspended: [2, '停工'],
  finished: [3, '完工'],
});

/** The states in which a project holds its manager. */
export const ACTIVE_PROJECT_STATES: readonly number[] = [ProjectState.building, ProjectState.suspended];

/**
 * The certificate kinds that make a project manager a 注册建造师: holding one of them, valid on the day,
 * is what the flag means (derived by the server from the person's certificates, never typed).
 */
export const CONSTRUCTOR_KINDS: readonly string[] = ['一级建造师', '二级建造师'];

export const isActiveProject = (state: number): boolean => ACTIVE_PROJECT_STATES.includes(state);

export interface ManagedProject {
  id: string;
  code: string;
  name: string;
  managerId: string | null;
  managerRegistered: boolean;
  state: number;
}

/**
 * The active project (other than `p` itself) that already has `p`'s registered manager, or null when
 * `p` may be saved: the rule only binds a registered manager of an active project.
 */
export function managerConflict(p: ManagedProject, others: readonly ManagedProject[]): ManagedProject | null {
  if (!p.managerId || !p.managerRegistered || !isActiveProject(p.state)) return null;
  return others.find((o) => o.id !== p.id && o.managerId === p.managerId && o.managerRegistered && isActiveProject(o.state)) ?? null;
}

export const managerConflictMessage = (managerName: string, other: { code: string; name: string }): string =>
  `${managerName || '该项目经理'}是注册建造师，已担任在建项目「${other.code} ${other.name}」的项目经理，不能同时负责两个在建项目`;

/** Percent in basis points (12.34% = 1234) of a part of a whole; null when the whole is 0. */
export const percentBp = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part * 10000) / whole) : null);

import { describe, expect, it } from 'vitest';
import { slotsToRender } from './AppMain';

const slot = (path: string, noCache = false) => ({ path, fullPath: path, noCache });

describe('AppMain view cache', () => {
  it('keeps every cached view and adds the current one', () => {
    expect(slotsToRender([slot('/a'), slot('/b')], slot('/c')).map((s) => s.path)).toEqual(['/a', '/b', '/c']);
  });

  it('a noCache view is mounted only while current', () => {
    const visited = [slot('/a'), slot('/form', true)];
    expect(slotsToRender(visited, slot('/a')).map((s) => s.path)).toEqual(['/a']);
    expect(slotsToRender(visited, slot('/form', true)).map((s) => s.path)).toEqual(['/a', '/form']);
  });

  it('a closed view is no longer mounted', () => {
    expect(slotsToRender([slot('/a')], slot('/a')).map((s) => s.path)).toEqual(['/a']);
    expect(slotsToRender([], null)).toEqual([]);
  });
});

describe('AppMain view cache: views never opened', () => {
  it('a visited view that was never current is not mounted until it is opened', () => {
    const visited = [slot('/dashboard'), slot('/a')];
    expect(slotsToRender(visited, slot('/a'), new Set(['/a'])).map((s) => s.path)).toEqual(['/a']);
    expect(slotsToRender(visited, slot('/dashboard'), new Set(['/a', '/dashboard'])).map((s) => s.path)).toEqual(['/dashboard', '/a']);
  });
});

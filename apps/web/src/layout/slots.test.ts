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

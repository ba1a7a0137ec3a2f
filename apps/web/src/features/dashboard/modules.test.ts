import { describe, expect, it } from 'vitest';
import { filterCards, moduleCards } from './modules';
import { greeting } from './greeting';

describe('dashboard module cards', () => {
  it('shows only the modules and pages the roles open', () => {
    const titles = moduleCards(['5']).map((c) => c.title);
    expect(titles).toEqual(['工作流', '销项发票', '费用报销', '投标管理']);
    const all = moduleCards(['5']).flatMap((c) => c.pages.map((p) => p.path));
    expect(all).not.toContain('/dashboard');
    expect(all.some((p) => p.includes(':'))).toBe(false);
    expect(all).not.toContain('/system/userlist');
  });

  it('admin gets all seven modules', () => {
    expect(moduleCards(['admin'])).toHaveLength(7);
  });

  it('search narrows to matching pages, or a whole module by its title', () => {
    const cards = moduleCards(['admin']);
    const hit = filterCards(cards, '台账');
    expect(hit.every((c) => c.pages.every((p) => p.title.includes('台账')))).toBe(true);
    expect(hit.length).toBeGreaterThan(1);
    expect(filterCards(cards, '系统管理').find((c) => c.group === '/system')?.pages.length).toBeGreaterThan(5);
    expect(filterCards(cards, '没有这个')).toEqual([]);
    expect(filterCards(cards, '  ')).toHaveLength(7);
  });

  it('greets by the hour', () => {
    expect(greeting(8)).toBe('早上好');
    expect(greeting(10)).toBe('上午好');
    expect(greeting(15)).toBe('下午好');
    expect(greeting(20)).toBe('晚上好');
  });
});

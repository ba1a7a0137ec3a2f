/** Which department × project combinations a month of the demo cost orders has (seed/cost.ts), drawn by weight. */
import type { Rng } from './rng.js';

/** A department bearing cost and a project, with the weight of its drawing. */
export interface Combo {
  dept: string;
  project: { id: string; code: string; name: string };
  weight: number;
}

/** `n` of `items` without repetition, each drawn with probability by `weight` (Efraimidis–Spirakis). */
export function weightedSample<X>(rng: Rng, items: readonly X[], weight: (x: X) => number, n: number): X[] {
  return items
    .map((x) => ({ x, key: -Math.log(1 - rng.next()) / weight(x) }))
    .sort((a, b) => a.key - b.key)
    .slice(0, n)
    .map((e) => e.x);
}

/** The month's department × project combinations, `n` of them by weight, with at least `least` of 工程一部's and 工程二部's each (when `n` allows). */
export function chooseCombos(rng: Rng, combos: Combo[], n: number, least: number): Combo[] {
  const ranked = weightedSample(rng, combos, (c) => c.weight, combos.length);
  const chosen = ranked.slice(0, n);
  const depts = ['eng1', 'eng2'];
  if (least === 0 || n < 3 * least) return chosen;
  for (const dept of depts) {
    const short = least - chosen.filter((c) => c.dept === dept).length;
    const spare = ranked.slice(n).filter((c) => c.dept === dept).slice(0, Math.max(0, short));
    for (const c of spare) {
      const out = chosen.map((x, i) => [x, i] as const).reverse().find(([x]) => !depts.includes(x.dept));
      if (out) chosen[out[1]] = c;
    }
  }
  return chosen;
}

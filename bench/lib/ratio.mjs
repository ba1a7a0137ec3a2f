/**
 * Timing against an anchor in the same run (the pattern of bench/income-pool.mjs): each figure is run
 * interleaved with the anchor (anchor, figure, anchor, figure …) after one warm-up of both, and printed
 * as a Markdown row: its median and max in ms and its ratio to the anchor run just before it, min /
 * median / max over the runs, so noise on a shared machine shows in the anchor too.
 */
import { performance } from 'node:perf_hooks';

export function ratioTimer({ anchor, runs, median }) {
  const f1 = (x) => x.toFixed(1);
  const f2 = (x) => x.toFixed(2);
  const anchors = [];
  async function time(label, fn) {
    await anchor();
    await fn();
    const xs = [];
    const rs = [];
    let last;
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      await anchor();
      const a = performance.now() - t;
      anchors.push(a);
      t = performance.now();
      last = await fn();
      const x = performance.now() - t;
      xs.push(x);
      rs.push(x / a);
    }
    console.log(`| ${label} | ${f1(median(xs))} ms | ${f1(Math.max(...xs))} ms | ×${f2(Math.min(...rs))} / ${f2(median(rs))} / ${f2(Math.max(...rs))} | ${last ?? ''} |`);
  }
  const header = (what) => console.log(`| call | median | max | ÷ anchor min / median / max | ${what} |\n| --- | --- | --- | --- | --- |`);
  /** The anchor's own median over every run of the script. */
  const anchorMedian = () => f1(median(anchors));
  return { time, header, anchorMedian };
}

/** An export through app.inject, its size in KiB (throws unless 200). */
export async function exportSize(app, url, body, token) {
  const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', 'x-token': token }, payload: JSON.stringify(body) });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
  return `${Math.round(res.rawPayload.length / 1024)} KiB`;
}

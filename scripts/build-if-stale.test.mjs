/** scripts/build-if-stale.mjs: when `npm start` rebuilds (issue 12 #23). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STAMP, TARGETS, buildIfStale, fingerprint, staleness } from './build-if-stale.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const SHARED = { key: 'shared', workspace: '@x/shared', inputs: ['lib/src'], dist: 'lib/dist', entry: 'index.js' };
const APP = { key: 'app', workspace: '@x/app', inputs: ['lib/src', 'app/src', 'app/config.ts'], dist: 'app/dist', entry: 'main.js' };

let root;
const write = (rel, text) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};
/** A stand-in for `npm run build -w`: writes the entry, records the call, succeeds unless told. */
function runner(fail = []) {
  const calls = [];
  const run = (r, t) => {
    calls.push(t.key);
    if (fail.includes(t.key)) return false;
    write(`${t.dist}/${t.entry}`, 'built');
    return true;
  };
  return { calls, run };
}
const quiet = () => undefined;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-if-stale-'));
  write('lib/src/index.ts', 'export const a = 1;');
  write('lib/src/index.test.ts', 'test');
  write('app/src/main.ts', 'import "lib";');
  write('app/config.ts', 'export default {};');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('build-if-stale', () => {
  it('builds everything on a fresh checkout, then nothing while the sources stay the same', () => {
    expect(staleness(root, APP)).toMatchObject({ stale: true, reason: 'not built yet' });
    const first = runner();
    expect(buildIfStale({ root, targets: [SHARED, APP], run: first.run, log: quiet })).toEqual({ ok: true, built: ['shared', 'app'] });
    expect(first.calls).toEqual(['shared', 'app']);
    const second = runner();
    expect(buildIfStale({ root, targets: [SHARED, APP], run: second.run, log: quiet })).toEqual({ ok: true, built: [] });
    expect(second.calls).toEqual([]);
  });

  it('rebuilds only what a changed source feeds: the app alone, or both for a shared source', () => {
    buildIfStale({ root, targets: [SHARED, APP], run: runner().run, log: quiet });
    write('app/src/main.ts', 'import "lib"; // changed');
    expect(staleness(root, SHARED).stale).toBe(false);
    expect(staleness(root, APP)).toMatchObject({ stale: true, reason: 'sources changed' });
    const r = runner();
    buildIfStale({ root, targets: [SHARED, APP], run: r.run, log: quiet });
    expect(r.calls).toEqual(['app']);

    write('lib/src/util.ts', 'export const b = 2;');
    const both = runner();
    buildIfStale({ root, targets: [SHARED, APP], run: both.run, log: quiet });
    expect(both.calls).toEqual(['shared', 'app']);
  });

  it('ignores a touched file with the same content and a changed test file', () => {
    buildIfStale({ root, targets: [SHARED, APP], run: runner().run, log: quiet });
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, 'lib/src/index.ts'), later, later);
    write('lib/src/index.test.ts', 'another test');
    expect([staleness(root, SHARED).stale, staleness(root, APP).stale]).toEqual([false, false]);
  });

  it('rebuilds when the output or the stamp is gone, or a source file is deleted', () => {
    buildIfStale({ root, targets: [SHARED, APP], run: runner().run, log: quiet });
    fs.rmSync(path.join(root, 'app/dist/main.js'));
    expect(staleness(root, APP)).toMatchObject({ stale: true, reason: 'not built yet' });
    buildIfStale({ root, targets: [APP], run: runner().run, log: quiet });
    fs.rmSync(path.join(root, 'lib/dist', STAMP));
    expect(staleness(root, SHARED)).toMatchObject({ stale: true, reason: 'no build stamp' });
    buildIfStale({ root, targets: [SHARED], run: runner().run, log: quiet });
    fs.rmSync(path.join(root, 'app/config.ts'));
    expect(staleness(root, APP)).toMatchObject({ stale: true, reason: 'sources changed' });
  });

  it('stops at a failed build and leaves no stamp, so the next start tries again', () => {
    const r = runner(['shared']);
    expect(buildIfStale({ root, targets: [SHARED, APP], run: r.run, log: quiet })).toEqual({ ok: false, built: [], failed: 'shared' });
    expect(r.calls).toEqual(['shared']);
    expect(fs.existsSync(path.join(root, 'lib/dist', STAMP))).toBe(false);
    expect(staleness(root, SHARED).stale).toBe(true);
  });

  it('builds regardless with force', () => {
    buildIfStale({ root, targets: [SHARED, APP], run: runner().run, log: quiet });
    const r = runner();
    buildIfStale({ root, targets: [SHARED, APP], run: r.run, force: true, log: quiet });
    expect(r.calls).toEqual(['shared', 'app']);
  });

  it('names inputs that exist in this repository, in build order shared → server → web', () => {
    expect(TARGETS.map((t) => t.key)).toEqual(['shared', 'server', 'web']);
    for (const t of TARGETS) for (const i of t.inputs) expect([t.key, i, fs.existsSync(path.join(repo, i))]).toEqual([t.key, i, true]);
    expect(fingerprint(repo, TARGETS[0].inputs)).toMatch(/^[0-9a-f]{64}$/);
  });
});

/**
 * A build check (issue 30): the chunks every signed-in page loads first (the entry, the signed-in chrome
 * and the workbench, with the chunks they import statically) must not import the list pages' antd chunk
 * (`antd-list` in vite.config.ts). A module of the chrome that comes to share a dependency with that
 * chunk (an icon, a dayjs plugin) would otherwise silently add its 100-odd KiB to /dashboard.
 */
import type { Plugin } from 'vite';

const FIRST_LOADS = [/\/layout\/Layout\.tsx$/, /\/features\/dashboard\/Dashboard\.tsx$/];

export function guardFirstLoads(forbidden: string): Plugin {
  return {
    name: 'zhyy-guard-first-loads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
      const starts = chunks.filter((c) => c.isEntry || (c.facadeModuleId && FIRST_LOADS.some((re) => re.test(c.facadeModuleId!))));
      if (starts.length !== FIRST_LOADS.length + 1) this.error('guardFirstLoads: the entry, the layout or the workbench chunk is missing from the build');
      const seen = new Set<string>();
      const walk = (fileName: string, from: string) => {
        if (seen.has(fileName)) return;
        seen.add(fileName);
        const c = bundle[fileName];
        if (c?.type !== 'chunk') return;
        if (c.name === forbidden) this.error(`guardFirstLoads: ${from} imports the ${forbidden} chunk statically`);
        c.imports.forEach((f) => walk(f, c.fileName));
      };
      for (const c of starts) walk(c.fileName, c.fileName);
    },
  };
}

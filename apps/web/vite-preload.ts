/**
 * The sign-in page's chunk is requested by index.html itself (issue 30, /login time to usable): the build
 * adds a `<link rel="modulepreload">` for the chunk of features/login/Login.tsx and the chunks it imports
 * statically, and a `<link rel="preload" as="style">` for its stylesheet, so the browser fetches them
 * beside the entry script instead of after the entry has run and /api/public/config has answered. The
 * links only fetch: the chunk runs when the router renders the page, as before (on any other page the
 * bytes are fetched and unused: the chunk is plain React, no antd).
 */
import type { HtmlTagDescriptor, Plugin } from 'vite';

/** The module whose chunk the first screen of a visitor needs. */
const FIRST_SCREEN = /\/features\/login\/Login\.tsx$/;

export function preloadFirstScreen(): Plugin {
  return {
    name: 'zhyy-preload-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
        const entry = chunks.find((c) => c.isEntry);
        const login = chunks.find((c) => c.facadeModuleId && FIRST_SCREEN.test(c.facadeModuleId));
        if (!entry || !login) throw new Error('preloadFirstScreen: the entry or the sign-in chunk is missing from the build');
        // The entry and what it imports are preloaded by Vite already.
        const have = new Set<string>([entry.fileName]);
        const walk = (fileName: string) => {
          if (have.has(fileName)) return;
          have.add(fileName);
          const c = bundle[fileName];
          if (c?.type === 'chunk') c.imports.forEach(walk);
        };
        entry.imports.forEach(walk);
        const preloaded = new Set(have);
        walk(login.fileName);
        const tags: HtmlTagDescriptor[] = [...have]
          .filter((f) => !preloaded.has(f))
          .map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${f}` }, injectTo: 'head' }));
        for (const css of login.viteMetadata?.importedCss ?? []) tags.push({ tag: 'link', attrs: { rel: 'preload', as: 'style', href: `/${css}` }, injectTo: 'head' });
        return tags;
      },
    },
  };
}

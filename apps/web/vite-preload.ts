/**
 * The sign-in page's chunk is requested by index.html itself (issue 30, /login time to usable): the build
 * adds a small inline script that, when the browser holds no session cookie (a visitor who will be shown
 * the sign-in page), adds a `<link rel="modulepreload">` for the chunk of features/login/Login.tsx and the
 * chunks it imports statically, and a `<link rel="preload" as="style">` for its stylesheet, so the browser
 * fetches them beside the entry script instead of after the entry has run. The links only fetch: the
 * chunk runs when the router renders the page, as before. A signed-in visit fetches none of it.
 */
import type { Plugin } from 'vite';
import { TOKEN_COOKIE_NAME } from '../../packages/shared/src/constants';

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
        const links: [rel: string, href: string][] = [...have].filter((f) => !preloaded.has(f)).map((f) => ['modulepreload', `/${f}`]);
        for (const css of login.viteMetadata?.importedCss ?? []) links.push(['style', `/${css}`]);
        return [{ tag: 'script', children: preloadScript(links), injectTo: 'head' }];
      },
    },
  };
}

/** The inline script: adds the links unless the session cookie is set (the cookie's name is a plain token). */
export function preloadScript(links: readonly (readonly [rel: string, href: string])[]): string {
  return (
    `if(!/(?:^|;\\s*)${TOKEN_COOKIE_NAME}=/.test(document.cookie))${JSON.stringify(links)}.forEach(function(x){` +
    `var l=document.createElement('link');if(x[0]==='style'){l.rel='preload';l.as='style'}else{l.rel=x[0];l.crossOrigin=''}` +
    `l.href=x[1];document.head.appendChild(l)})`
  );
}

/**
 * The dependency check (`npm run depcheck`, first stage of `npm test`): which part of the code may import
 * which (docs/architecture.md "Layers and the dependency check"). Every rule is an error and none lists
 * exceptions: an offending import is fixed by moving the shared piece down, never by allowing it here.
 * The dependencies are the sources' (tsPreCompilationDeps: true): an `import type` counts like any other
 * import, for the layers and for circles, because a file does not compile without what it imports types
 * from; a circle of types ties the files together as much as a circle of values (issue 28 item 2).
 * TypeScript resolution as the compilers do it (tsconfig.base.json; the workspace package @zhyy/shared by
 * its "source" export, so packages/shared/src is cruised as such).
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle (server, web or shared): move the piece both sides need into a module both may import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'db-platform-not-modules',
      severity: 'error',
      comment: 'apps/server/src/db and platform are the ground floor: they import no business module (modules/). Migrations are frozen files of db/migrations.',
      from: { path: '^apps/server/src/(db|platform)/' },
      to: { path: '^apps/server/src/modules/' },
    },
    {
      name: 'migrations-frozen',
      severity: 'error',
      comment: 'A migration is a frozen file of db/migrations: it imports npm packages (kysely) and its own parts only, never live code (modules, integrations, platform, @zhyy/shared); a rule it needs is copied in as it was that day.',
      from: { path: '^apps/server/src/db/migrations/' },
      to: { pathNot: ['^apps/server/src/db/migrations/', '(^|/)node_modules/'] },
    },
    {
      name: 'integrations-not-modules',
      severity: 'error',
      comment: 'apps/server/src/integrations (the outside systems and their simulators) import no business module (modules/).',
      from: { path: '^apps/server/src/integrations/' },
      to: { path: '^apps/server/src/modules/' },
    },
    {
      name: 'web-feature-not-other-feature',
      severity: 'error',
      comment: 'A web feature imports no other feature except features/common: move the shared piece into features/common or ui/.',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/([^/]+)/', pathNot: ['^apps/web/src/features/common/', '^apps/web/src/features/$1/'] },
    },
    {
      name: 'web-not-server',
      severity: 'error',
      comment: 'The web client never imports server code (only packages/shared).',
      from: { path: '^apps/web/' },
      to: { path: '^apps/server/' },
    },
    {
      name: 'shared-not-apps',
      severity: 'error',
      comment: 'packages/shared is imported by the apps and imports neither of them.',
      from: { path: '^packages/shared/' },
      to: { path: '^apps/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import the check cannot resolve: it would see no dependency there.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)node_modules/', '(^|/)dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    cache: false,
  },
};

/**
 * The floors of the code (README, "Architecture in a few lines"), checked by `npm run lint`:
 * no loop of value imports, and the foundations import no feature. Type-only imports are erased
 * at build time and may cross (a foundation naming a feature's type is not a dependency on it).
 * Foundations: the person and the session (auth, users, membership), the request's edge (http),
 * the services (storage, mail, places, images, locations), the shared list and form pieces, and
 * the two that features plug into (live, safety).
 */
const FOUNDATIONS = "^lib/(auth|users|membership|http|transport|csp|storage|mail|places|images|locations|pagination|forms|live|safety)/";
const FEATURES =
  "^lib/(account|connections|couples|dashboard|demo|directory|discover|scheduled|events|forum|interests|invitations|messages|notifications|onboarding|plans|profile|registration|settings|verification)/";

module.exports = {
  forbidden: [
    {
      name: "no-import-loops",
      comment: "A loop of imports has no bottom: one of its modules belongs a floor lower.",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "foundations-import-no-feature",
      comment: "A foundation serves every feature: features register with it and react to it, never the other way.",
      severity: "error",
      from: { path: FOUNDATIONS },
      to: { path: FEATURES, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "database-imports-no-domain",
      comment: "The schema and the client are the lowest floor: they use the shared leaves at lib/*.ts (errors, env), never an area.",
      severity: "error",
      from: { path: "^db/" },
      to: { path: "^(lib/[^/]+/|components/|app/)", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next|\\.data|tests|scripts)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};

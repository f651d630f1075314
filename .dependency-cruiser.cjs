/**
 * Import rules of every workspace, checked by `test/dependencies.test.ts` (so `npm test` and CI run them) and by
 * `npx depcruise shared/src functions/src session-runner/src web/src infra/lib infra/local/src --config .dependency-cruiser.cjs`.
 * Type-only imports are not runtime imports: they never make a cycle. Tests and test kits are left out.
 * See docs/architecture.md §10.
 */

/** Files (outside `repository.ts` and `shared/src/db/`) that may talk to DynamoDB: storage plumbing, not features. */
const STORAGE_MODULES = [
  "shared/src/auth/throttle.ts",
  "shared/src/auth/ws-ticket.ts",
  "shared/src/events/outbox.ts",
  "shared/src/events/durable.ts",
  "shared/src/ingest/parking.ts",
  "shared/src/realtime/connections.ts",
  "shared/src/search/index.ts",
  "shared/src/search/writes.ts",
  "shared/src/search/backfill.ts",
  "shared/src/tickets/row.ts",
  "shared/src/seed/seed.ts",
  "session-runner/src/auth-state.ts",
  "session-runner/src/command-claims.ts",
  "session-runner/src/lease.ts",
];
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** The entry points: the only modules that may import the events' composition root. */
const ENTRY_POINTS = [
  "^functions/src/http/core/http\\.ts$",
  "^functions/src/ws/(connect|default|disconnect)\\.ts$",
  "^functions/src/jobs/[^/]+\\.ts$",
  "^session-runner/src/(main|local)\\.ts$",
];

const DYNAMO = "(^|/)node_modules/@aws-sdk/(lib|client)-dynamodb/|^shared/src/db/client\\.ts$";

module.exports = {
  forbidden: [
    {
      name: "no-runtime-cycle",
      comment: "A runtime import cycle: modules that load each other half-initialised. Type-only imports are fine.",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "dynamodb-only-in-repositories",
      comment:
        "DynamoDB commands are sent only from a feature's repository.ts, shared/src/db and the listed storage modules; never from a service, a handler or the web.",
      severity: "error",
      from: { path: "^(shared|functions|session-runner|web)/", pathNot: ["/repository\\.ts$", "^shared/src/db/", ...STORAGE_MODULES.map((f) => `^${esc(f)}$`)] },
      to: { path: DYNAMO, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "services-never-import-dynamodb",
      comment: "A service calls its feature's repository; it never imports DynamoDB commands or the client.",
      severity: "error",
      from: { path: "service\\.ts$" },
      to: { path: DYNAMO, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "shared-never-imports-handlers",
      comment: "Domain code (shared) never imports the Lambda handlers, the session runner, the web or the infrastructure.",
      severity: "error",
      from: { path: "^shared/" },
      to: { path: "^(functions|session-runner|web|infra)/" },
    },
    {
      name: "web-never-imports-server-code",
      comment: "The web bundles no handler, runner or infrastructure code (types of the route manifest are fine).",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^(functions|session-runner|infra)/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "web-takes-no-dynamodb",
      comment: "Nothing the web loads talks to DynamoDB.",
      severity: "error",
      from: { path: "^web/" },
      to: { path: DYNAMO, reachable: true },
    },
    {
      name: "events-leaf",
      comment:
        "events/index.ts (what services import: dispatch, defineEvents, realtimeFrames) loads only the registry, the dispatcher and the frame mappers: no listener, no other feature.",
      severity: "error",
      from: { path: "^shared/src/events/(index|registry|dispatch|frames)\\.ts$" },
      to: { path: "^shared/src/", pathNot: ["^shared/src/events/(index|registry|dispatch|frames)\\.ts$", "^shared/src/log\\.ts$"], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "wiring-only-from-entry-points",
      comment: "The events' composition root (every listener) is imported only by entry points and the test set-up.",
      severity: "error",
      from: { pathNot: ENTRY_POINTS },
      to: { path: "^shared/src/events/wiring\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["\\.test\\.tsx?$", "(^|/|\\.)testkit\\.ts$", "(^|/)testing/", "\\.d\\.ts$", "(^|/)(dist|cdk\\.out)/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"], extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"] },
    combinedDependencies: false,
    preserveSymlinks: false,
  },
};

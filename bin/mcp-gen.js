#!/usr/bin/env node
// The `mcp-gen` command inside this repository: runs the CLI's TypeScript sources through tsx's ESM loader, so edits
// take effect without a build (tests and npm scripts use it). The published CLI package runs its compiled JavaScript
// instead (generator/bin/mcp-gen.js → generator/dist/).
// `@mcp-gen/runtime` resolves as it does for any package (the workspace links node_modules/@mcp-gen/runtime to
// runtime/); the `@mcp-gen/source` export condition, added here for every import (as `--conditions` would), selects
// the runtime's TypeScript sources instead of its build, so the sources run without `npm run build`.
import { register } from "node:module";
import { register as registerTsx } from "tsx/esm/api";

registerTsx();
// Registered last, so it runs first: later hooks, Node's resolver included, see the added condition.
register(
  "data:text/javascript," +
    encodeURIComponent(
      'export function resolve(s, c, next) { return next(s, { ...c, conditions: [...c.conditions, "@mcp-gen/source"] }); }',
    ),
);
await import("../generator/cli.ts");

#!/usr/bin/env node
// The `mcp-gen` command inside this repository: runs the CLI's TypeScript sources through tsx's ESM loader, so edits
// take effect without a build (tests and npm scripts use it). The published CLI package runs its compiled JavaScript
// instead (generator/bin/mcp-gen.js → generator/dist/).
import { register } from "tsx/esm/api";

register();
await import("../generator/cli.ts");

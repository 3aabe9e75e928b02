#!/usr/bin/env node
// Entry point for the `mcp-gen` command: loads the TypeScript CLI through tsx's ESM loader.
import { register } from "tsx/esm/api";

register();
await import("../generator/cli.ts");

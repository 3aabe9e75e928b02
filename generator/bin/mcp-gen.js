#!/usr/bin/env node
// The installed `mcp-gen` command: the compiled CLI (npm run build → dist/). In this repository, bin/mcp-gen.js at
// the root runs the TypeScript sources instead.
await import("../dist/cli.js");

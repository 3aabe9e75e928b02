/**
 * Setup file of `npm run test:unit` (vitest.unit.config.ts): a unit test starts no process and opens no socket.
 * Every Node API that would do either throws here, before any test module loads, so a test that starts a process
 * or a server (itself or through a helper, a bundler or a CLI run) fails under `test:unit`: it belongs in the full
 * suite, not in the fast subset. test/unit-guard.check.ts proves each door is shut.
 */
import childProcess from "node:child_process";
import dgram from "node:dgram";
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import tls from "node:tls";

const FORBIDDEN: ReadonlyArray<readonly [string, Record<string, unknown>, readonly string[]]> = [
  ["child_process", childProcess, ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"]],
  ["net", net, ["createServer", "connect", "createConnection"]],
  ["tls", tls, ["createServer", "connect"]],
  ["http", http, ["createServer", "request", "get"]],
  ["https", https, ["createServer", "request", "get"]],
  ["http2", http2, ["createServer", "createSecureServer", "connect"]],
  ["dgram", dgram, ["createSocket"]],
];

/** The error every shut door throws: what was called, and where such a test belongs. */
export function refusal(what: string): Error {
  return new Error(
    `${what}() in a unit test: \`npm run test:unit\` runs tests that start no process and open no socket; ` +
      "leave this test file out of vitest.unit.config.ts (the full suite runs it)",
  );
}

function shut(what: string): () => never {
  return () => {
    throw refusal(what);
  };
}

for (const [module, exports, names] of FORBIDDEN) {
  for (const name of names) exports[name] = shut(`${module}.${name}`);
}
net.Socket.prototype.connect = shut("net.Socket.connect");
// The named ESM imports of node:* modules (`import { spawn } from "node:child_process"`) follow the patched objects.
syncBuiltinESMExports();
globalThis.fetch = shut("fetch");

/**
 * `npm run fuzz -- [count] [seed] [--only=<text>]`: the fuzz suite's properties (the same code the vitest files run
 * with fixed seeds and small counts), each with `count` cases and a random seed unless one is given. Without a
 * count, each property runs its own default: 2,000 cases, the drift gate 10,000 (issue 34: it is cheap, in process).
 * Prints the seed first, so a failure can be replayed with it; exits 1 if any property failed.
 */
import { httpSessionFrames, legacyFrames, statelessFrames, stdioFrames, type RunOptions } from "./properties/frames.ts";
import { forgedTokens } from "./properties/tokens.ts";
import { failedInitialize, hostAndOrigin, wrongHeaders } from "./properties/abuse.ts";
import { startServer } from "./harness/process.ts";
import { generatorInputs } from "./properties/generator.ts";
import { SERVER_INPUT_PROPERTIES } from "./properties/server-inputs.ts";
import { driftGate } from "./properties/drift-gate.ts";

/** An HTTP abuse property on its own server process. */
const onHttpServer =
  (run: (server: Awaited<ReturnType<typeof startServer>>, o: RunOptions) => Promise<void>) => async (o: RunOptions) => {
    const server = await startServer({
      mode: "http",
      httpOptions: { maxSessions: 100_000, maxSessionsPerClient: 100_000 },
    });
    try {
      await run(server, o);
    } finally {
      await server.stop();
    }
  };

const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith("--only="))?.slice("--only=".length);
const positional = args.filter((a) => !a.startsWith("--"));
const given = positional[0] !== undefined ? Number(positional[0]) : undefined;
const count = given ?? 2000;
const seed = positional[1] !== undefined ? Number(positional[1]) : Math.floor(Math.random() * 2 ** 31);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
  console.error("usage: npm run fuzz -- [count] [seed] [--only=<text>]");
  process.exit(2);
}

/** Each property: its name, how it runs, and its default count when it differs from 2,000. */
const properties: Array<[string, (options: RunOptions) => Promise<void>, number?]> = [
  ["stdio 2025-11-25", (o) => stdioFrames("2025-11-25", o)],
  ["stdio 2025-03-26", (o) => stdioFrames("2025-03-26", o)],
  ["stdio 2026-07-28", (o) => stdioFrames("2026-07-28", o)],
  ["http session 2025-11-25", (o) => httpSessionFrames("2025-11-25", o)],
  ["http session 2025-03-26", (o) => httpSessionFrames("2025-03-26", o)],
  ["http stateless 2026-07-28", (o) => statelessFrames(o)],
  ["legacy sse 2024-11-05", (o) => legacyFrames(o)],
  ["forged tokens", (o) => forgedTokens(o)],
  ["abuse host/origin", onHttpServer(hostAndOrigin)],
  ["abuse wrong headers", onHttpServer(wrongHeaders)],
  ["abuse failed initialize", onHttpServer(failedInitialize)],
  ["generator inputs (import → generate → tsc → load → call)", (o) => generatorInputs(o)],
  ...SERVER_INPUT_PROPERTIES,
  ["drift gate (check --live against the pins, random edits of the lists)", (o) => driftGate(o), 10_000],
];

console.log(
  `fuzz: ${given ?? "the default number of"} cases per property, seed ${seed}${only ? `, only "${only}"` : ""}`,
);
let failed = 0;
for (const [name, run, ownCount] of properties) {
  if (only && !name.includes(only)) continue;
  const started = Date.now();
  const numRuns = given ?? ownCount ?? count;
  try {
    await run({ numRuns, seed, log: (line) => console.log(`  ${line}`) });
    console.log(`ok    ${name} (${numRuns} cases, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failed++;
    const cause = error instanceof Error && error.cause instanceof Error ? `\ncause: ${error.cause.message}` : "";
    console.log(`FAIL  ${name}\n${error instanceof Error ? error.message : String(error)}${cause}`);
  }
}
console.log(failed === 0 ? "fuzz: all properties held" : `fuzz: ${failed} properties failed (seed ${seed})`);
process.exitCode = failed === 0 ? 0 : 1;

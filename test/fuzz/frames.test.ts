/**
 * Malformed frames of every class against examples/everything as real processes, one per transport (see
 * properties/frames.ts). Fixed seeds and bounded counts here; `npm run fuzz -- <count> [seed]` runs them longer.
 */
import { describe, it } from "vitest";
import { httpSessionFrames, legacyFrames, statelessFrames, stdioFrames } from "./properties/frames.ts";

const runs = (numRuns: number, seed: number) => ({ numRuns, seed, log: (line: string) => console.log(line) });

describe.concurrent("malformed frames: right code, next request served, process up, heap flat", () => {
  it("stdio 2025-11-25", () => stdioFrames("2025-11-25", runs(200, 9001)), 120_000);
  it("stdio 2025-03-26 (batches)", () => stdioFrames("2025-03-26", runs(150, 9002)), 120_000);
  it("stdio 2026-07-28 (stateless)", () => stdioFrames("2026-07-28", runs(150, 9003)), 120_000);
  it("HTTP session 2025-11-25", () => httpSessionFrames("2025-11-25", runs(120, 9004)), 120_000);
  it("HTTP session 2025-03-26 (batches)", () => httpSessionFrames("2025-03-26", runs(100, 9005)), 120_000);
  it("HTTP stateless 2026-07-28", () => statelessFrames(runs(150, 9006)), 120_000);
  it("legacy HTTP+SSE 2024-11-05", () => legacyFrames(runs(100, 9007)), 120_000);
});

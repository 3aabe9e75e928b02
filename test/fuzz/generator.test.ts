/**
 * Generator inputs from a hostile server (see properties/generator.ts): import → generate → tsc → load → call; fixed
 * seed, one tsc batch.
 */
import { it } from "vitest";
import { generatorInputs } from "./properties/generator.ts";

it(
  "hostile names, keys, patterns, $ref graphs and depths: refused clearly or generated, compiled, loaded and called",
  () => generatorInputs({ numRuns: 40, seed: 2020, log: (line) => console.log(line) }),
  600_000,
);

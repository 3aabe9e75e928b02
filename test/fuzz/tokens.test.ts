/** Forged bearer tokens against examples/everything with `auth` (see properties/tokens.ts); fixed seed, bounded count. */
import { it } from "vitest";
import { forgedTokens } from "./properties/tokens.ts";

it(
  "every forged token gets 401 with a header-safe challenge, and the server keeps serving",
  () => forgedTokens({ numRuns: 150, seed: 4242, log: (line) => console.log(line) }),
  120_000,
);

/**
 * The `add` tool every bench server on this runtime declares: its definition (the JSON Schema input tools/list shows)
 * and its arguments' zod validator. The caller passes zod in, so a bench child that serves another implementation
 * never loads it through this file.
 */
import type { z as Zod } from "zod";

export const ADD_TOOL = {
  name: "add",
  inputSchema: {
    type: "object" as const,
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
};

export const addArguments = (z: typeof Zod) => z.object({ a: z.number(), b: z.number() });

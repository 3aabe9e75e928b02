import { z } from "zod";
import type * as T from "./types.ts";

/** Validates {@link T.Point}. */
export const PointSchema = z.tuple([z.number(), z.number()]);

/** Validates {@link T.Command}. */
export const CommandSchema = z.tuple([z.string()], z.boolean());

/** Validates {@link T.Slug}. */
export const SlugSchema = z.string().min(2).max(16).regex(new RegExp("^[a-z][a-z0-9-]*$", "u"));

/** Validates {@link T.Order}. */
export const OrderSchema = z.strictObject({
  id: z.int().gte(1),
  slug: SlugSchema.exactOptional(),
  amount: z.number().lte(1000).gt(0).multipleOf(0.5),
  points: z.array(PointSchema).min(1).max(3),
  email: z.email().exactOptional(),
  placedAt: z.iso.datetime({ offset: true }),
  note: z.string().nullable(),
  "with space": z.literal(true).exactOptional(),
});

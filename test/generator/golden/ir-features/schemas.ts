import * as z from "zod";
import { exactly, optionalKey, type ObjectSchema } from "../../../../runtime/protocol/zod-helpers.ts";
import type * as T from "./types.ts";

/** Validates {@link T.Point}. */
export const PointSchema: z.ZodType<T.Point> = exactly<T.Point>()(z.tuple([z.number(), z.number()]));

/** Validates {@link T.Command}. */
export const CommandSchema: z.ZodType<T.Command> = exactly<T.Command>()(z.tuple([z.string()], z.boolean()));

/** Validates {@link T.Slug}. */
export const SlugSchema: z.ZodType<T.Slug> = exactly<T.Slug>()(
  z.string().min(2).max(16).regex(new RegExp("^[a-z][a-z0-9-]*$", "u")),
);

/** Validates {@link T.Order}. */
export const OrderSchema: ObjectSchema<T.Order> = exactly<T.Order>()(
  z.strictObject({
    id: z.int().gte(1),
    slug: optionalKey(SlugSchema),
    amount: z.number().lte(1000).gt(0).multipleOf(0.5),
    points: z.array(PointSchema).min(1).max(3),
    email: optionalKey(z.email()),
    placedAt: z.iso.datetime({ offset: true }),
    note: z.string().nullable(),
    "with space": optionalKey(z.literal(true)),
  }),
);

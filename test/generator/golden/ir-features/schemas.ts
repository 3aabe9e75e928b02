import * as z from "zod/mini";
import { built, closedObject, exactly, optionalKey, type ObjectSchema } from "@mcp-gen/runtime";
import type * as T from "./types.ts";

/** Validates {@link T.Point}. */
export const PointSchema: z.ZodMiniType<T.Point> = exactly<T.Point>()(z.lazy(() => z.tuple([z.number(), z.number()])));

/** Validates {@link T.Command}. */
export const CommandSchema: z.ZodMiniType<T.Command> = exactly<T.Command>()(
  z.lazy(() => z.tuple([z.string()], z.boolean())),
);

/** Validates {@link T.Slug}. */
export const SlugSchema: z.ZodMiniType<T.Slug> = exactly<T.Slug>()(
  z.lazy(() => z.string().check(z.minLength(2), z.maxLength(16), z.regex(new RegExp("^[a-z][a-z0-9-]*$", "u")))),
);

/** Validates {@link T.Order}. */
export const OrderSchema: ObjectSchema<T.Order> = exactly<T.Order>()(
  z.lazy(() =>
    closedObject({
      id: z.int().check(z.gte(1)),
      slug: optionalKey(built(SlugSchema)),
      amount: z.number().check(z.lte(1000), z.gt(0), z.multipleOf(0.5)),
      points: z.array(built(PointSchema)).check(z.minLength(1), z.maxLength(3)),
      email: optionalKey(z.email()),
      placedAt: z.iso.datetime({ offset: true }),
      note: z.nullable(z.string()),
      "with space": optionalKey(z.literal(true)),
    }),
  ),
);

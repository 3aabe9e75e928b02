/**
 * The runtime's elicitation types (derived from the generated bindings of every built-in revision with
 * `elicitation/create`) against those bindings, and how a handler narrows them: type-level assertions (checked by `npx tsc -p tsconfig.json --noEmit`; every `@ts-expect-error`
 * must be an error, or tsc reports the unused directive) plus the generated validators on values of those types.
 */
import { describe, expect, it } from "vitest";
import type * as Rev0618 from "../../../runtime/generated/protocol/2025-06-18/types.ts";
import type * as Rev2025 from "../../../runtime/generated/protocol/2025-11-25/types.ts";
import type * as Rev2026 from "../../../runtime/generated/protocol/2026-07-28/types.ts";
import { ElicitRequestParamsSchema as Params2025 } from "../../../runtime/generated/protocol/2025-11-25/schemas.ts";
import { ElicitRequestParamsSchema as Params2026 } from "../../../runtime/generated/protocol/2026-07-28/schemas.ts";
import type {
  ClientHandlers,
  ElicitFormParams,
  ElicitParams,
  ElicitRequestedSchema,
  ElicitUrlParams,
  RequestContext,
} from "../../../runtime/index.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assignable<From, To> = [From] extends [To] ? true : false;
const assertType = <T extends true>(value: T): T => value;
const assertNot = <T extends false>(value: T): T => value;

/** Generated interfaces have no index signature; their structural copy is what a parsed value is. */
type Plain<T> = T extends readonly unknown[]
  ? { [K in keyof T]: Plain<T[K]> }
  : T extends object
    ? { [K in keyof T]: Plain<T[K]> }
    : T;
/** Declared property names, without the index signature. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
// `{} extends Pick<T, K>` is the standard test for an optional key; `{}` is meant here.
type RequiredKeys<T> = {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  [K in KnownKeys<T>]-?: K extends keyof T ? ({} extends Pick<T, K> ? never : K) : never;
}[KnownKeys<T>];
/** Declared keys that may hold a value (the runtime marks a key only other revisions have `?: never`). */
type ValueKeys<T> = {
  [K in KnownKeys<T>]-?: K extends keyof T ? ([Exclude<T[K], undefined>] extends [never] ? never : K) : never;
}[KnownKeys<T>];

// ---- what a client handler receives: everything either revision can send is an ElicitParams ----------------
assertType<Assignable<Plain<Rev0618.ElicitRequest["params"]>, ElicitFormParams>>(true);
assertType<Assignable<Plain<Rev2025.ElicitRequestParams>, ElicitParams>>(true);
assertType<Assignable<Plain<Rev2026.ElicitRequestParams>, ElicitParams>>(true);
assertType<Assignable<Plain<Rev2025.ElicitRequestFormParams>, ElicitFormParams>>(true);
assertType<Assignable<Plain<Rev2026.ElicitRequestFormParams>, ElicitFormParams>>(true);
assertType<Assignable<Plain<Rev2025.ElicitRequestURLParams>, ElicitUrlParams>>(true);
assertType<Assignable<Plain<Rev2026.ElicitRequestURLParams>, ElicitUrlParams>>(true);
// ...and each mode lands in its own member (a URL request is not a form).
assertNot<Assignable<Plain<Rev2025.ElicitRequestURLParams>, ElicitFormParams>>(false);
assertNot<Assignable<Plain<Rev2026.ElicitRequestFormParams>, ElicitUrlParams>>(false);

// ---- the discriminant and the required fields match the generated ones ---------------------------------------
assertType<Equal<ElicitUrlParams["mode"], Rev2025.ElicitRequestURLParams["mode"]>>(true);
assertType<Equal<ElicitUrlParams["mode"], Rev2026.ElicitRequestURLParams["mode"]>>(true);
assertType<Equal<ElicitFormParams["mode"], Rev2025.ElicitRequestFormParams["mode"]>>(true);
assertType<Equal<ElicitFormParams["mode"], Rev2026.ElicitRequestFormParams["mode"]>>(true);
assertType<Equal<RequiredKeys<ElicitFormParams>, RequiredKeys<Rev2025.ElicitRequestFormParams>>>(true);
assertType<Equal<RequiredKeys<ElicitFormParams>, RequiredKeys<Rev2026.ElicitRequestFormParams>>>(true);
// The form is exactly one of the generated forms (2025-06-18's has no `$schema`, so it is not a common key).
assertType<
  Equal<
    ElicitRequestedSchema,
    | Rev0618.ElicitRequest["params"]["requestedSchema"]
    | Rev2025.ElicitRequestFormParams["requestedSchema"]
    | Rev2026.ElicitRequestFormParams["requestedSchema"]
  >
>(true);
assertType<
  Equal<RequiredKeys<ElicitRequestedSchema>, RequiredKeys<Rev2026.ElicitRequestFormParams["requestedSchema"]>>
>(true);
// URL mode: 2026-07-28 requires exactly what the runtime requires; 2025-11-25 also requires elicitationId, which
// the runtime's union therefore reads as optional, and 2026-07-28 no longer has it. A URL request carries exactly
// the fields either revision declares.
assertType<Equal<RequiredKeys<ElicitUrlParams>, RequiredKeys<Rev2026.ElicitRequestURLParams>>>(true);
assertType<Equal<RequiredKeys<Rev2025.ElicitRequestURLParams>, RequiredKeys<ElicitUrlParams> | "elicitationId">>(true);
assertType<
  Equal<
    ValueKeys<ElicitUrlParams>,
    KnownKeys<Rev2025.ElicitRequestURLParams> | KnownKeys<Rev2026.ElicitRequestURLParams>
  >
>(true);
assertNot<Assignable<"elicitationId", KnownKeys<Rev2026.ElicitRequestURLParams>>>(false);
assertType<Equal<NonNullable<ElicitUrlParams["elicitationId"]>, Rev2025.ElicitRequestURLParams["elicitationId"]>>(true);
// A runtime URL request with an id is a 2025-11-25 one, and one without is a 2026-07-28 one.
assertType<Assignable<ElicitUrlParams & { readonly elicitationId: string }, Rev2025.ElicitRequestURLParams>>(true);
assertType<Assignable<ElicitUrlParams, Rev2026.ElicitRequestURLParams>>(true);
assertNot<Assignable<ElicitUrlParams, Rev2025.ElicitRequestURLParams>>(false);

// ---- a client handler must narrow on `mode` ---------------------------------------------------------------
export const narrowingHandler: NonNullable<ClientHandlers["elicitation"]> = (params) => {
  // @ts-expect-error `url` is only known once `mode` says URL
  params.url.startsWith("https:");
  // @ts-expect-error the form is only known once `mode` says form
  void params.requestedSchema.properties;
  if (params.mode === "url") {
    const url: string = params.url;
    const id: string | undefined = params.elicitationId;
    // @ts-expect-error 2026-07-28 URL requests carry no elicitationId, so it may be missing
    const required: string = params.elicitationId;
    return { action: url.startsWith("https:") && id !== required ? "accept" : "decline" };
  }
  const fields: readonly string[] = Object.keys(params.requestedSchema.properties);
  // @ts-expect-error a form request has no URL to open
  const url: string = params.url;
  return { action: "accept", content: { fields: [...fields], url } };
};

// ---- what a server handler may ask for ------------------------------------------------------------------
export async function serverHandler(ctx: RequestContext): Promise<void> {
  await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
  await ctx.elicit({ mode: "url", message: "Connect", url: "https://example.com/connect", elicitationId: "el-1" });
  // @ts-expect-error URL mode needs a url
  await ctx.elicit({ mode: "url", message: "Connect", elicitationId: "el-1" });
  // @ts-expect-error form mode needs a requestedSchema (a URL alone is not a form)
  await ctx.elicit({ message: "Connect", url: "https://example.com/connect" });
  // @ts-expect-error a form's schema is an object schema
  await ctx.elicit({ message: "Name?", requestedSchema: { type: "string", properties: {} } });
  // @ts-expect-error an elicitationId is a string
  await ctx.elicit({ mode: "url", message: "Connect", url: "https://example.com/connect", elicitationId: 1 });
  const sent: boolean = await ctx.completeElicitation("el-1");
  // @ts-expect-error an elicitationId is a string
  await ctx.completeElicitation(sent ? 1 : 2);
}

// ---- the generated validators agree with the documented difference between the revisions --------------------
describe("ElicitParams against the generated validators", () => {
  const form = {
    message: "Name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  } satisfies ElicitParams;
  const urlWithId = {
    mode: "url",
    message: "Connect",
    url: "https://example.com/connect",
    elicitationId: "el-1",
  } satisfies ElicitParams;
  const { elicitationId: _dropped, ...urlWithoutId } = urlWithId;

  it("accepts a form request in both revisions", () => {
    expect(Params2025.safeParse(form).success).toBe(true);
    expect(Params2026.safeParse(form).success).toBe(true);
  });

  it("needs an elicitationId for a URL request in 2025-11-25 only", () => {
    expect(Params2025.safeParse(urlWithId).success).toBe(true);
    expect(Params2025.safeParse(urlWithoutId).success).toBe(false);
    expect(Params2026.safeParse(urlWithoutId).success).toBe(true);
  });

  it("rejects a URL request without a url in both revisions", () => {
    const { url: _url, ...noUrl } = urlWithId;
    expect(Params2025.safeParse(noUrl).success).toBe(false);
    expect(Params2026.safeParse({ mode: "url", message: "Connect" }).success).toBe(false);
  });
});

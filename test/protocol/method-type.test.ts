/**
 * The token types of runtime/protocol/method-type.ts as generated code uses them: ParamsOf / ResultOf /
 * CompleteResultOf / NotificationParamsOf read the generated types back from a token (checked by tsc in
 * `npm test`), and the constructor fills `completeResult` with the result when input is never required.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { type methods as m2026 } from "../../runtime/generated/protocol/2026-07-28/methods.ts";
import type * as T2026 from "../../runtime/generated/protocol/2026-07-28/types.ts";
import { type methods as m2025 } from "../../runtime/generated/protocol/2025-11-25/methods.ts";
import type * as T2025 from "../../runtime/generated/protocol/2025-11-25/types.ts";
import {
  ProtocolNotificationType,
  ProtocolRequestType,
  type CompleteResultOf,
  type NotificationParamsOf,
  type ParamsOf,
  type ResultOf,
} from "../../runtime/protocol/method-type.ts";

describe("token types", () => {
  it("read params, result and complete result back from a generated token", () => {
    type Call = (typeof m2026)["tools/call"];
    expectTypeOf<ParamsOf<Call>>().toEqualTypeOf<T2026.CallToolRequestParams>();
    expectTypeOf<ResultOf<Call>>().toEqualTypeOf<T2026.CallToolResult | T2026.InputRequiredResult>();
    expectTypeOf<CompleteResultOf<Call>>().toEqualTypeOf<T2026.CallToolResult>();
    type List = (typeof m2025)["tools/list"];
    expectTypeOf<CompleteResultOf<List>>().toEqualTypeOf<T2025.ListToolsResult>();
    expectTypeOf<NotificationParamsOf<List>>().toEqualTypeOf<never>();
    type Progress = (typeof m2025)["notifications/progress"];
    expectTypeOf<NotificationParamsOf<Progress>>().toEqualTypeOf<T2025.ProgressNotificationParams>();
    expectTypeOf<ParamsOf<Progress>>().toEqualTypeOf<T2025.ProgressNotificationParams>();
    expectTypeOf<ResultOf<Progress>>().toEqualTypeOf<never>();
  });
});

describe("token constructors", () => {
  const params = z.object({ a: z.string() });
  const result = z.object({ b: z.number() });

  it("a request without an input-required member: completeResult is the result schema", () => {
    const token = new ProtocolRequestType<"x", { a: string }, { b: number }>({
      method: "x",
      direction: "clientToServer",
      params,
      result,
      paramsOptional: false,
      delivery: "message",
      resultType: false,
      cacheable: true,
      inputRequired: false,
    });
    expect(token.completeResult).toBe(result);
    expect([token.kind, token.cacheable, token.inputRequired, "capability" in token]).toEqual([
      "request",
      true,
      false,
      false,
    ]);
  });

  it("keeps a given completeResult and capability", () => {
    const complete = z.object({ c: z.boolean() });
    const token = new ProtocolRequestType({
      method: "y",
      direction: "serverToClient",
      params,
      result: z.union([complete, result]),
      paramsOptional: true,
      delivery: "embedded",
      capability: { side: "client", path: ["y"] },
      resultType: true,
      cacheable: false,
      inputRequired: true,
      completeResult: complete,
    });
    expect(token.completeResult).toBe(complete);
    expect(token.capability).toEqual({ side: "client", path: ["y"] });
    const notification = new ProtocolNotificationType({ method: "n", direction: "both", params, paramsOptional: true });
    expect([notification.kind, "capability" in notification]).toEqual(["notification", false]);
  });
});

/**
 * Method tables against the spec (spec-matrix §1.1, derived by hand from the spec, not from the generator): per
 * revision the set of methods, their directions, results, deliveries and capability gates, in the IR and in the
 * committed runtime/generated/protocol/<rev>/methods.ts.
 */
import { describe, expect, it } from "vitest";
import type { IrType } from "../../generator/ir/model.ts";
import { ProtocolNotificationType, ProtocolRequestType } from "../../runtime/protocol/method-type.ts";
import { revisions } from "../../runtime/generated/protocol/revisions.ts";
import { RELEASED, specModel } from "./spec.ts";

const C = "clientToServer";
const S = "serverToClient";
const B = "both";
const _ = null;
type Dir = typeof C | typeof S | typeof B | null;

/** method → [result types (requests), direction in 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28]. */
const TABLE: Record<string, [string[] | null, Dir, Dir, Dir, Dir, Dir]> = {
  initialize: [["InitializeResult"], C, C, C, C, _],
  "notifications/initialized": [null, C, C, C, C, _],
  ping: [["EmptyResult"], B, B, B, B, _],
  "server/discover": [["DiscoverResult"], _, _, _, _, C],
  "completion/complete": [["CompleteResult"], C, C, C, C, C],
  "logging/setLevel": [["EmptyResult"], C, C, C, C, _],
  "prompts/list": [["ListPromptsResult"], C, C, C, C, C],
  "prompts/get": [["GetPromptResult"], C, C, C, C, C],
  "resources/list": [["ListResourcesResult"], C, C, C, C, C],
  "resources/templates/list": [["ListResourceTemplatesResult"], C, C, C, C, C],
  "resources/read": [["ReadResourceResult"], C, C, C, C, C],
  "resources/subscribe": [["EmptyResult"], C, C, C, C, _],
  "resources/unsubscribe": [["EmptyResult"], C, C, C, C, _],
  "subscriptions/listen": [["SubscriptionsListenResult"], _, _, _, _, C],
  "tools/list": [["ListToolsResult"], C, C, C, C, C],
  "tools/call": [["CallToolResult"], C, C, C, C, C],
  "sampling/createMessage": [["CreateMessageResult"], S, S, S, S, S],
  "roots/list": [["ListRootsResult"], S, S, S, S, S],
  "elicitation/create": [["ElicitResult"], _, _, S, S, S],
  "tasks/get": [["GetTaskResult"], _, _, _, B, _],
  "tasks/result": [["GetTaskPayloadResult"], _, _, _, B, _],
  "tasks/list": [["ListTasksResult"], _, _, _, B, _],
  "tasks/cancel": [["CancelTaskResult"], _, _, _, B, _],
  "notifications/cancelled": [null, B, B, B, B, B],
  "notifications/progress": [null, B, B, B, B, S],
  "notifications/message": [null, S, S, S, S, S],
  "notifications/resources/updated": [null, S, S, S, S, S],
  "notifications/resources/list_changed": [null, S, S, S, S, S],
  "notifications/tools/list_changed": [null, S, S, S, S, S],
  "notifications/prompts/list_changed": [null, S, S, S, S, S],
  "notifications/roots/list_changed": [null, C, C, C, C, _],
  "notifications/tasks/status": [null, _, _, _, B, _],
  "notifications/elicitation/complete": [null, _, _, _, S, _],
  "notifications/subscriptions/acknowledged": [null, _, _, _, _, S],
};

/** Methods that may answer with InputRequiredResult (2026-07-28 multi round-trip). */
const INPUT_REQUIRED = new Set(["tools/call", "prompts/get", "resources/read"]);
/** Requests carried inside InputRequiredResult rather than sent (2026-07-28). */
const EMBEDDED = new Set(["sampling/createMessage", "roots/list", "elicitation/create"]);

const refNames = (t: IrType | undefined): string[] =>
  t === undefined ? [] : t.kind === "ref" ? [t.name] : t.kind === "union" ? t.items.flatMap(refNames) : ["<inline>"];

describe.each(RELEASED.map((rev, i) => [rev, i] as const))("method table of %s", (revision, column) => {
  const model = specModel(revision);
  const expected = Object.entries(TABLE).filter(([, row]) => row[column + 1] !== null);
  const stateless = !model.methods.some((m) => m.method === "initialize");

  it("has exactly the spec's methods", () => {
    expect(model.methods.map((m) => m.method)).toEqual(expected.map(([m]) => m).sort());
  });

  it("gives every method the spec's direction, result and delivery", () => {
    for (const [method, row] of expected) {
      const m = model.methods.find((x) => x.method === method)!;
      expect(m.direction, method).toBe(row[column + 1]);
      expect(m.kind, method).toBe(row[0] ? "request" : "notification");
      const results = row[0] && stateless && INPUT_REQUIRED.has(method) ? [...row[0], "InputRequiredResult"] : row[0];
      expect(refNames(m.result), method).toEqual(results ?? []);
      expect(m.delivery, method).toBe(stateless && EMBEDDED.has(method) ? "embedded" : "message");
    }
  });

  it("gates methods by the capabilities the spec names", () => {
    const gate = (method: string) => model.methods.find((m) => m.method === method)?.capability;
    expect(gate("tools/call")).toEqual({ side: "server", path: ["tools"] });
    expect(gate("prompts/get")).toEqual({ side: "server", path: ["prompts"] });
    expect(gate("resources/templates/list")).toEqual({ side: "server", path: ["resources"] });
    expect(gate("notifications/tools/list_changed")).toEqual({ side: "server", path: ["tools", "listChanged"] });
    expect(gate("notifications/resources/updated")).toEqual({ side: "server", path: ["resources", "subscribe"] });
    expect(gate("notifications/message")).toEqual({ side: "server", path: ["logging"] });
    expect(gate("sampling/createMessage")).toEqual({ side: "client", path: ["sampling"] });
    expect(gate("roots/list")).toEqual({ side: "client", path: ["roots"] });
    // `completions` was added to ServerCapabilities in 2025-03-26.
    expect(gate("completion/complete")).toEqual(
      revision === "2024-11-05" ? undefined : { side: "server", path: ["completions"] },
    );
    if (!stateless) {
      expect(gate("resources/subscribe")).toEqual({ side: "server", path: ["resources", "subscribe"] });
      expect(gate("notifications/roots/list_changed")).toEqual({ side: "client", path: ["roots", "listChanged"] });
      expect(gate("ping")).toBeUndefined();
      expect(gate("initialize")).toBeUndefined();
    }
  });

  it("is what runtime/generated/protocol/<rev>/methods.ts exports", () => {
    const table = revisions[revision].methods as Record<string, unknown>;
    expect(Object.keys(table)).toEqual(model.methods.map((m) => m.method));
    for (const m of model.methods) {
      const token = table[m.method];
      if (m.kind === "request") {
        expect(token).toBeInstanceOf(ProtocolRequestType);
        const request = token as ProtocolRequestType<string, unknown, unknown>;
        expect([request.method, request.direction, request.paramsOptional, request.delivery]).toEqual([
          m.method,
          m.direction,
          m.paramsOptional,
          m.delivery,
        ]);
        expect(request.capability).toEqual(m.capability);
      } else {
        expect(token).toBeInstanceOf(ProtocolNotificationType);
        const notification = token as ProtocolNotificationType<string, unknown>;
        expect([notification.method, notification.direction, notification.paramsOptional]).toEqual([
          m.method,
          m.direction,
          m.paramsOptional,
        ]);
        expect(notification.capability).toEqual(m.capability);
      }
    }
    expect(revisions[revision].PROTOCOL_REVISION).toBe(revision);
  });

  it("validates params and results with the right schemas", () => {
    const tools = revisions[revision].methods["tools/call"];
    const meta = stateless
      ? {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": revision,
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        }
      : {};
    expect(tools.params.safeParse({ name: "echo", arguments: { text: "hi" }, ...meta }).success).toBe(true);
    expect(tools.params.safeParse({ arguments: {}, ...meta }).success).toBe(false);
    const result = { content: [{ type: "text", text: "hi" }], ...(stateless ? { resultType: "complete" } : {}) };
    expect(tools.result.safeParse(result).success).toBe(true);
    expect(tools.result.safeParse({ content: [{ type: "text", text: 42 }] }).success).toBe(false);
  });
});

it("revisions.ts lists every generated revision, sorted", () => {
  expect(Object.keys(revisions)).toEqual([...RELEASED]);
});

/**
 * The client's view of the two eras, one strategy object each, consulted by the connection instead of branching:
 * what a request carries, how its result completes, whether the server may send requests of its own, and what a
 * server's `notifications/cancelled` names. (Which request opens a connection, and the fallback between eras, is
 * negotiate.ts: it runs before an era is known.)
 *
 * - handshake era (`initialize`): state lives in the connection; the server sends JSON-RPC requests (sampling,
 *   elicitation, roots) and cancels its own requests.
 * - stateless era (`server/discover`): every request carries the client's `_meta`; results carry `resultType` and may
 *   be an `InputRequiredResult` the client answers and retries; `notifications/cancelled` ends one of our streams.
 */
import { ProtocolUsageError } from "../jsonrpc/errors.ts";
import { ERA_RULES, type Era, type EraRules } from "../protocol/era.ts";
import { withMeta } from "../protocol/meta.ts";
import { withRepeatedMeta } from "../protocol/repeated-meta.ts";
import { InvalidMessageError, parseResult, type Validator } from "../protocol/validation.ts";

/** What the connection reads of one request method: facts its token states (core or extension; passed as is). */
export interface RequestFacts {
  readonly method: string;
  readonly paramsOptional: boolean;
  /** The result may be an `InputRequiredResult`. */
  readonly inputRequired: boolean;
  readonly completeResult: Validator<unknown>;
}

/** The questions of an `InputRequiredResult`. */
export interface InputRequired {
  readonly inputRequests?: Readonly<Record<string, { method: string; params?: unknown }>>;
  readonly requestState?: string;
}

export interface ClientEra {
  readonly era: Era;
  /** The era's facts shared with the server and HTTP layers (opening method, `_meta` on requests, …). */
  readonly rules: EraRules;
  /** The params of a request as sent; `meta` is the client's per-request `_meta` (built on demand). */
  wireParams(params: unknown, facts: RequestFacts, meta: () => Record<string, unknown>): unknown;
  /**
   * The params of a notification as sent. Stateless era: it carries the client's `_meta` as requests do (only requests
   * must, basic/index.mdx), so the message shows its era and revision: Streamable HTTP sends the
   * `MCP-Protocol-Version` header every POST needs (streamable-http.mdx), and a server sees the declared extensions.
   */
  notificationParams(params: unknown, meta: () => Record<string, unknown>): unknown;
  /**
   * The parsed `InputRequiredResult` when `raw` asks for another round, else undefined. `schema` is the revision's
   * `InputRequiredResult` (none: the revision has no multi round-trip results).
   */
  inputRequired(raw: unknown, facts: RequestFacts, schema: Validator<unknown> | undefined): InputRequired | undefined;
  /** The validated complete result of `raw`. */
  completeResult(raw: unknown, facts: RequestFacts): Record<string, unknown>;
  /** Whose request a server's `notifications/cancelled` names: one it sent us, or one of ours it ends. */
  readonly serverCancels: "its-request" | "our-request";
}

const handshake: ClientEra = {
  era: "handshake",
  rules: ERA_RULES.handshake,
  wireParams: (params, facts) => params ?? (facts.paramsOptional ? undefined : {}),
  notificationParams: (params) => params,
  inputRequired: () => undefined,
  completeResult: (raw, facts) =>
    parseResult(facts.completeResult, raw, `${facts.method} result`) as Record<string, unknown>,
  serverCancels: "its-request",
};

const stateless: ClientEra = {
  era: "stateless",
  rules: ERA_RULES.stateless,
  wireParams: (params, _facts, meta) => withMeta(params, meta()),
  notificationParams: (params, meta) => withMeta(params, meta()),
  inputRequired(raw, facts, schema) {
    if (
      !facts.inputRequired ||
      !schema ||
      (raw as Record<string, unknown> | undefined)?.["resultType"] !== "input_required"
    )
      return undefined;
    return parseResult(schema, raw, `${facts.method} input_required result`) as InputRequired;
  },
  completeResult(raw, facts) {
    const resultType = (raw as Record<string, unknown> | undefined)?.["resultType"];
    if (resultType !== undefined && resultType !== "complete") {
      throw new InvalidMessageError(`${facts.method} result`, [
        { path: ["resultType"], message: `unknown resultType ${JSON.stringify(resultType)}` },
      ]);
    }
    // basic/index.mdx: a result without `resultType` (a server of an earlier revision) is treated as "complete".
    const complete =
      resultType === undefined && raw && typeof raw === "object"
        ? { ...(raw as Record<string, unknown>), resultType: "complete" }
        : raw;
    return parseResult(withRepeatedMeta(facts.completeResult), complete, `${facts.method} result`) as Record<
      string,
      unknown
    >;
  },
  serverCancels: "our-request",
};

const ERAS: Readonly<Record<Era, ClientEra>> = { handshake, stateless };

export function clientEra(era: Era): ClientEra {
  return ERAS[era];
}

/** Bounds the multi round-trip rounds of one call. */
export function checkRounds(method: string, round: number, maxRounds: number): void {
  if (round >= maxRounds)
    throw new ProtocolUsageError(`${method}: the server still requires input after ${maxRounds} rounds`);
}

/**
 * The stateless era's input channel: a handler's `elicit`/`createMessage`/`listRoots` calls are keyed by the key
 * the handler chose, else numbered in call order (`input-0`, `input-1`, … among the calls without a key). Answers the client already gave (this round's `inputResponses`, earlier rounds' via `requestState`) are
 * replayed; an unanswered call is recorded and rejects, and the request ends with an `InputRequiredResult` listing
 * every unanswered call. The client retries with the answers and the handler runs again from the start.
 */
import { ErrorCode, ProtocolUsageError, RpcError } from "../jsonrpc/errors.ts";
import {
  capabilityFor,
  describeGate,
  elicitationModeAllowed,
  hasCapability,
  type Capabilities,
} from "../protocol/capabilities.ts";
import type { AnyRequestType } from "../protocol/method-type.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";
import { formatIssues } from "../protocol/validation.ts";
import type { InputChannel } from "./scope.ts";
import { stableStringify } from "./request-state.ts";

/** Thrown into the handler for an unanswered input; the runtime turns the request into an `InputRequiredResult`. */
export class InputRequiredSignal extends Error {
  constructor(readonly key: string) {
    super(`input ${key} is required from the client; the request will be retried with the answer`);
    this.name = "InputRequiredSignal";
  }
}

/**
 * The token of input request `method` a handler asks of this client (both MRTR rounds and task input use it), or
 * the error to reject the ask with: a bad key, a method the revision cannot embed or this request cannot ask, a
 * capability (or elicitation mode) the client did not declare, invalid params.
 */
export function checkInputRequest(
  profile: RevisionProfile,
  clientCapabilities: Capabilities,
  method: string,
  params: unknown,
  chosenKey: string | undefined,
  allowed: boolean,
): AnyRequestType | Error {
  if (chosenKey !== undefined && (typeof chosenKey !== "string" || chosenKey.length === 0)) {
    return new ProtocolUsageError(`the key of a ${method} input must be a non-empty string`);
  }
  const token = profile.embedded.get(method);
  if (!token || !allowed) {
    return new ProtocolUsageError(`${method} cannot be asked of the client while serving this request`);
  }
  if (token.capability && !hasCapability(clientCapabilities, token.capability.path)) {
    return new RpcError(
      ErrorCode.MissingRequiredClientCapability,
      `Missing required client capability: ${describeGate(token.capability)}`,
      { requiredCapabilities: capabilityFor(token.capability) },
    );
  }
  if (method === "elicitation/create" && !elicitationModeAllowed(clientCapabilities, params)) {
    const mode = (params as { mode?: string }).mode ?? "form";
    return new RpcError(
      ErrorCode.MissingRequiredClientCapability,
      `Missing required client capability: elicitation.${mode}`,
      {
        requiredCapabilities: { elicitation: { [mode]: {} } },
      },
    );
  }
  const checked = token.params.safeParse(params);
  if (!checked.success) {
    return new ProtocolUsageError(`invalid ${method} request: ${formatIssues(checked.error.issues, "params")}`);
  }
  return token;
}

type Missing = Record<string, { method: string; params: unknown }>;

/** One per stateless request; most handlers ask nothing, so its collections are created on the first ask. */
export class InputRounds implements InputChannel {
  private next = 0;
  /** Every key asked in this run, with its method and params: one key, one question. */
  private asked: Map<string, string> | undefined;
  /** Unanswered inputs by key (null prototype: keys are the handler's or the client's strings). */
  private unanswered: Missing | undefined;
  missingCount = 0;

  get missing(): Missing {
    return (this.unanswered ??= Object.create(null) as Missing);
  }

  constructor(
    private readonly profile: RevisionProfile,
    private readonly clientCapabilities: Capabilities,
    /** Every answer known so far (earlier rounds merged with this round's `inputResponses`). */
    readonly answers: Readonly<Record<string, unknown>>,
    private readonly allowed: boolean,
  ) {}

  ask(method: string, params: unknown, chosenKey: string | undefined): Promise<unknown> {
    const token = checkInputRequest(this.profile, this.clientCapabilities, method, params, chosenKey, this.allowed);
    if (token instanceof Error) return Promise.reject(token);
    const key = chosenKey ?? `input-${this.next++}`;
    const request = `${method} ${stableStringify(params)}`;
    const asked = (this.asked ??= new Map());
    const earlier = asked.get(key);
    if (earlier !== undefined && earlier !== request) {
      return Promise.reject(new ProtocolUsageError(`input key ${key} is used for two different input requests`));
    }
    asked.set(key, request);
    if (Object.hasOwn(this.answers, key)) {
      const parsed = token.result.safeParse(this.answers[key]);
      if (!parsed.success) {
        return Promise.reject(
          new RpcError(
            ErrorCode.InvalidParams,
            `Invalid params: inputResponses.${key} is not a valid ${method} result: ${formatIssues(parsed.error.issues, key)}`,
          ),
        );
      }
      return Promise.resolve(parsed.data);
    }
    if (earlier === undefined) {
      this.missing[key] = { method, params };
      this.missingCount++;
    }
    return Promise.reject(new InputRequiredSignal(key));
  }
}

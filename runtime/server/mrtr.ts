/**
 * The stateless era's input channel: a handler's `elicit`/`createMessage`/`listRoots` calls are numbered in call
 * order. Answers the client already gave (this round's `inputResponses`, earlier rounds' via `requestState`) are
 * replayed; an unanswered call is recorded and rejects, and the request ends with an `InputRequiredResult` listing
 * every unanswered call. The client retries with the answers and the handler runs again from the start.
 */
import { ErrorCode, ProtocolUsageError, RpcError } from "../jsonrpc/errors.ts";
import { capabilityFor, describeGate, elicitationModeAllowed, hasCapability, type Capabilities } from "../session/capabilities.ts";
import type { RevisionProfile } from "../session/profiles.ts";
import { formatIssues } from "../session/validation.ts";
import type { InputChannel } from "./context.ts";

/** Thrown into the handler for an unanswered input; the runtime turns the request into an `InputRequiredResult`. */
export class InputRequiredSignal extends Error {
  constructor(readonly key: string) {
    super(`input ${key} is required from the client; the request will be retried with the answer`);
    this.name = "InputRequiredSignal";
  }
}

export class InputRounds implements InputChannel {
  private next = 0;
  readonly missing: Record<string, { method: string; params: unknown }> = {};
  missingCount = 0;

  constructor(
    private readonly profile: RevisionProfile,
    private readonly clientCapabilities: Capabilities,
    /** Every answer known so far (earlier rounds merged with this round's `inputResponses`). */
    readonly answers: Readonly<Record<string, unknown>>,
    private readonly allowed: boolean,
  ) {}

  ask(method: string, params: unknown): Promise<unknown> {
    const token = this.profile.embedded.get(method);
    if (!token || !this.allowed) {
      return Promise.reject(new ProtocolUsageError(`${method} cannot be asked of the client while serving this request`));
    }
    if (token.capability && !hasCapability(this.clientCapabilities, token.capability.path)) {
      return Promise.reject(
        new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${describeGate(token.capability)}`, {
          requiredCapabilities: capabilityFor(token.capability),
        }),
      );
    }
    if (method === "elicitation/create" && !elicitationModeAllowed(this.clientCapabilities, params)) {
      const mode = (params as { mode?: string }).mode ?? "form";
      return Promise.reject(
        new RpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: elicitation.${mode}`, {
          requiredCapabilities: { elicitation: { [mode]: {} } },
        }),
      );
    }
    const checked = token.params.safeParse(params);
    if (!checked.success) {
      return Promise.reject(new ProtocolUsageError(`invalid ${method} request: ${formatIssues(checked.error.issues, "params")}`));
    }
    const key = `input-${this.next++}`;
    if (key in this.answers) {
      const parsed = token.result.safeParse(this.answers[key]);
      if (!parsed.success) {
        return Promise.reject(
          new RpcError(ErrorCode.InvalidParams, `Invalid params: inputResponses.${key} is not a valid ${method} result: ${formatIssues(parsed.error.issues, key)}`),
        );
      }
      return Promise.resolve(parsed.data);
    }
    this.missing[key] = { method, params };
    this.missingCount++;
    return Promise.reject(new InputRequiredSignal(key));
  }
}

/**
 * The handshake era's input channel: `elicit`/`createMessage`/`listRoots` become JSON-RPC requests to the client,
 * sent only when the client declared the capability (and, for elicitation, the mode), with valid params, and
 * related to the request being served (so HTTP puts them on its stream). Results are validated by the table.
 */
import type { IncomingRequest, JsonRpcEngine } from "../protocol/engine.ts";
import { ProtocolUsageError } from "../jsonrpc/errors.ts";
import { describeGate, elicitationModeAllowed, hasCapability, type Capabilities } from "../protocol/capabilities.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";
import { formatIssues, parseResult } from "../protocol/validation.ts";
import type { InputChannel } from "./scope.ts";

export class HandshakeInput implements InputChannel {
  constructor(
    private readonly engine: JsonRpcEngine,
    private readonly request: IncomingRequest,
    private readonly profile: RevisionProfile,
    private readonly clientCapabilities: Capabilities,
  ) {}

  /** The input key is a stateless-era notion; here each input is a request with its own id. */
  async ask(method: string, params: unknown, _key?: string): Promise<unknown> {
    if (this.request.context?.serverRequests === false) {
      throw new ProtocolUsageError(
        `cannot send ${method}: this connection has no session to carry a request to the client and its answer back (serve with sessions, or over the stateless era)`,
      );
    }
    const token = this.profile.requests.get(method);
    if (!token || token.direction === "clientToServer")
      throw new ProtocolUsageError(`${method} does not exist in revision ${this.profile.version}`);
    if (token.capability && !hasCapability(this.clientCapabilities, token.capability.path)) {
      throw new ProtocolUsageError(
        `cannot send ${method}: the client did not declare the ${describeGate(token.capability)}`,
      );
    }
    if (method === "elicitation/create" && !elicitationModeAllowed(this.clientCapabilities, params)) {
      throw new ProtocolUsageError(`cannot send ${method}: the client did not declare this elicitation mode`);
    }
    const checked = token.params.safeParse(params);
    if (!checked.success)
      throw new ProtocolUsageError(`invalid ${method} request: ${formatIssues(checked.error.issues, "params")}`);
    const result = await this.engine.request(method, params, {
      signal: this.request.signal,
      relatedRequestId: this.request.id,
    });
    return parseResult(token.result, result, `${method} result`);
  }
}

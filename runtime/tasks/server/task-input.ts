/**
 * The input channel of a handler running as a task: `elicit`/`createMessage`/`listRoots` are checked exactly as
 * for a multi round-trip request (`checkInputRequest`, against the creating request's capabilities), then become
 * the task's `inputRequests` (status `input_required`); the call resolves when `tasks/update` brings the answer.
 * Keys are unique over the task's life: a handler's own key may not be used twice, generated ones skip used keys.
 */
import { ProtocolUsageError } from "../../jsonrpc/errors.ts";
import type { Capabilities } from "../../protocol/capabilities.ts";
import type { RevisionProfile } from "../../protocol/profiles.ts";
import type { InputChannel } from "../../server/scope.ts";
import { checkInputRequest } from "../../server/mrtr.ts";
import type { TaskInputRequest } from "./store.ts";

/** What the channel needs from the engine running the task. */
export interface TaskInputPort {
  /** Records the request as outstanding and resolves with the (validated) answer. */
  ask(taskId: string, key: string, request: TaskInputRequest, signal: AbortSignal): Promise<unknown>;
}

export class TaskInput implements InputChannel {
  private next = 0;
  private readonly used = new Set<string>();

  constructor(
    private readonly port: TaskInputPort,
    private readonly taskId: string,
    private readonly profile: RevisionProfile,
    private readonly clientCapabilities: Capabilities,
    private readonly signal: AbortSignal,
  ) {}

  ask(method: string, params: unknown, chosenKey: string | undefined): Promise<unknown> {
    const token = checkInputRequest(this.profile, this.clientCapabilities, method, params, chosenKey, true);
    if (token instanceof Error) return Promise.reject(token);
    if (chosenKey !== undefined && this.used.has(chosenKey))
      return Promise.reject(new ProtocolUsageError(`input key ${chosenKey} was already used by this task`));
    let key = chosenKey;
    while (key === undefined || this.used.has(key)) key = `input-${this.next++}`;
    this.used.add(key);
    return this.port.ask(this.taskId, key, { method, params }, this.signal);
  }
}

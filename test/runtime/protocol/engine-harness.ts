/** The scripted engine the engine tests drive: a ScriptedTransport, recorded diagnostics, sent-message lookups. */
import { JsonRpcEngine, type EngineHandlers } from "../../../runtime/protocol/engine.ts";
import { ScriptedTransport } from "../helpers.ts";

export type Sent = {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
};

export async function engineWith(handlers: Partial<EngineHandlers> = {}, defaultTimeoutMs?: number) {
  const t = new ScriptedTransport();
  const diagnostics: string[] = [];
  const engine = new JsonRpcEngine(
    t,
    { onRequest: () => ({}), onNotification: () => undefined, onDiagnostic: (m) => diagnostics.push(m), ...handlers },
    defaultTimeoutMs === undefined ? {} : { defaultTimeoutMs },
  );
  await engine.start();
  const sent = () => t.sent as Sent[];
  const idOf = (method: string) => sent().find((m) => m.method === method)!.id as number;
  const cancels = () => sent().filter((m) => m.method === "notifications/cancelled");
  return { t, engine, diagnostics, sent, idOf, cancels };
}

/** Milliseconds until `promise` settles (either way). */
export async function settleTime(promise: Promise<unknown>): Promise<number> {
  const start = Date.now();
  await promise.then(
    () => undefined,
    () => undefined,
  );
  return Date.now() - start;
}

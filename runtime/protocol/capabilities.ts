/** Capability objects and the gates of method tokens. */
import type { CapabilityGate } from "./method-type.ts";

export type Capabilities = Readonly<Record<string, unknown>>;

/** Whether `capabilities` declares the flag at `path` (present and not `false`/`null`). */
export function hasCapability(capabilities: Capabilities | undefined, path: readonly string[]): boolean {
  let node: unknown = capabilities;
  for (const key of path) {
    if (typeof node !== "object" || node === null) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== undefined && node !== null && node !== false;
}

/** The capability object that declares exactly the gate's path, e.g. `{ elicitation: {} }`. */
export function capabilityFor(gate: CapabilityGate): Record<string, unknown> {
  let node: Record<string, unknown> = {};
  for (let i = gate.path.length - 1; i >= 0; i--) node = { [gate.path[i] as string]: node };
  return node;
}

export function describeGate(gate: CapabilityGate): string {
  return `${gate.side} capability ${gate.path.join(".")}`;
}

/**
 * Deep-merges capability objects (later wins for non-object values). A key whose later value is `undefined` is
 * removed (e.g. `{ logging: undefined }` turns off a default), so the result never carries `undefined` values: an
 * in-memory peer would otherwise see a key that JSON transports drop.
 */
export function mergeCapabilities(...parts: Array<Capabilities | undefined>): Record<string, unknown> {
  return merge(parts, false);
}

/**
 * Layers `ServerOptions.capabilities` objects (a generated server's manifest switches, then the ones its code
 * passes): deep, later wins for non-object values, and a key whose value is `undefined` stays as it is, the marker
 * that turns off a capability the server would derive (`logging: undefined`), unless a later part sets it. So
 * `{ tools: { listChanged: false } }` layered with `{ tools: {} }` keeps `listChanged: false`.
 */
export function layerCapabilities(...parts: Array<Capabilities | undefined>): Record<string, unknown> {
  return merge(parts, true);
}

function merge(parts: ReadonlyArray<Capabilities | undefined>, keepRemovals: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    if (!part) continue;
    for (const [key, value] of Object.entries(part)) {
      if (value === undefined) {
        if (keepRemovals) out[key] = undefined;
        else delete out[key];
        continue;
      }
      const prev = out[key];
      out[key] = isPlainObject(value) ? merge([isPlainObject(prev) ? prev : undefined, value], keepRemovals) : value;
    }
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Elicitation modes are gated below the `elicitation` flag (client/elicitation.mdx): URL mode needs `elicitation.url`;
 * form mode needs `elicitation.form`, or an empty `elicitation` object (the pre-URL-mode way to say "form").
 */
export function elicitationModeAllowed(capabilities: Capabilities | undefined, params: unknown): boolean {
  const elicitation = capabilities?.["elicitation"];
  if (typeof elicitation !== "object" || elicitation === null) return false;
  const mode = (params as { mode?: unknown } | undefined)?.mode ?? "form";
  const declared = elicitation as Record<string, unknown>;
  if (mode === "url") return hasCapability(declared, ["url"]);
  return hasCapability(declared, ["form"]) || Object.keys(declared).length === 0;
}

/**
 * The result of comparing two revisions' IRs (`mcp-gen diff`): plain JSON data, described by diff.schema.json.
 * Only what changes generated code or runtime behaviour is compared: type structure (documentation is not), methods
 * (kind, direction, delivery, capability gate, params, result and result facts) and the revision-wide facts.
 */

/** One side of the comparison. */
export interface DiffSide {
  /** The revision name (`--revision` when it was generated). */
  readonly name: string;
  /** The on-the-wire protocol version. */
  readonly version: string;
  /** Absent when the revision has neither `initialize` nor `server/discover`. */
  readonly era?: "handshake" | "stateless";
  readonly batches: boolean;
}

/** A value that differs: what it was and what it is. Absent values (no gate, no era) are `null`. */
export interface Change {
  readonly field: string;
  readonly from: string | boolean | null;
  readonly to: string | boolean | null;
}

export interface MethodSummary {
  readonly method: string;
  readonly kind: "request" | "notification";
  readonly direction: string;
  readonly delivery: string;
  /** `side:path.to.flag`, or null when ungated. */
  readonly capability: string | null;
  readonly params: string | null;
  /** Requests only: the result type, as TypeScript. */
  readonly result: string | null;
  /** Requests only: the result facts that are true (`resultType`, `cacheable`, `inputRequired`). */
  readonly facts: readonly string[];
}

export interface MethodChange {
  readonly method: string;
  readonly changes: readonly Change[];
}

export interface TypeChange {
  readonly name: string;
  /** Property-level changes for object types (`property x`), else one `type` change with both types as TypeScript. */
  readonly changes: readonly Change[];
}

export interface RevisionDiff {
  readonly from: DiffSide;
  readonly to: DiffSide;
  /** Changes to version, era and batches. */
  readonly revision: readonly Change[];
  readonly methods: {
    readonly added: readonly MethodSummary[];
    readonly removed: readonly MethodSummary[];
    readonly changed: readonly MethodChange[];
  };
  readonly types: {
    readonly added: readonly string[];
    readonly removed: readonly string[];
    readonly changed: readonly TypeChange[];
  };
}

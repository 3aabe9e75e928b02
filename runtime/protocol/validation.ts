/** Validation with readable failures: a dotted path into the value and the validator's message. */
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";

export interface ValidationIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** Anything with zod's `safeParse` contract; generated validators and hand-written ones both fit. */
export interface Validator<T> {
  safeParse(
    value: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly ValidationIssue[] } };
}

export function formatIssues(issues: readonly ValidationIssue[], root: string): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.reduce<string>(
        (acc, key) => (typeof key === "number" ? `${acc}[${key}]` : `${acc}.${String(key)}`),
        root,
      );
      return `${path}: ${issue.message}`;
    })
    .join("; ");
}

/** Parses `value` or throws -32602 naming what failed where. */
export function parseParams<T>(validator: Validator<T>, value: unknown, what: string): T {
  const parsed = validator.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params for ${what}: ${formatIssues(parsed.error.issues, "params")}`,
  );
}

/** A result or embedded value that failed its schema (the peer broke the protocol). */
export class InvalidMessageError extends Error {
  constructor(
    readonly what: string,
    readonly issues: readonly ValidationIssue[],
  ) {
    super(`invalid ${what}: ${formatIssues(issues, "result")}`);
    this.name = "InvalidMessageError";
  }
}

export function parseResult<T>(validator: Validator<T>, value: unknown, what: string): T {
  const parsed = validator.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new InvalidMessageError(what, parsed.error.issues);
}

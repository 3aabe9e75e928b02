/**
 * The one error type of the generator: a reason plus, where known, the input location (`file:line`).
 * Every "cannot express this" path throws it, so a bad schema fails loudly instead of degrading to `unknown`.
 */
import type { IrLocation } from "./model.ts";

export class GeneratorError extends globalThis.Error {
  constructor(
    readonly reason: string,
    readonly location?: IrLocation,
    /** 1-based, when known (TypeScript's syntax errors): the message then reads `file:line:column: reason`. */
    readonly column?: number,
  ) {
    super(
      location ? `${location.file}:${location.line}${column === undefined ? "" : `:${column}`}: ${reason}` : reason,
    );
    this.name = "GeneratorError";
  }
}

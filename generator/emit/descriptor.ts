/**
 * `revision.ts` of a generated revision folder: the revision descriptor (`RevisionDescriptor` of the runtime's
 * method-type module), printed from the IR's protocol facts. Only revisions whose era is known get one: without
 * `initialize` or `server/discover` the bindings cannot be served.
 */
import type { IrModel } from "../ir/model.ts";
import { createPrinter, typeUse, type RuntimeEntry } from "./printer.ts";
import { runtime, siblingExport } from "./runtime-symbols.ts";

export interface DescriptorEmitOptions {
  /** The specifier of a runtime entry point as seen from the output directory. */
  readonly runtime: (entry: RuntimeEntry) => string;
  /** Extension of relative imports between the generated files; default `.ts`. */
  readonly importExtension?: string;
}

/** The descriptor module's text (unformatted, with `header`), or undefined when the revision has no era. */
export function emitDescriptorFile(model: IrModel, options: DescriptorEmitOptions, header = ""): string | undefined {
  const { era, version, batches, inputRequiredResult } = model.protocol;
  if (!era) return undefined;
  const f = createPrinter({ runtime: options.runtime, siblingExtension: options.importExtension ?? ".ts" });
  const methods = siblingExport("methods", "methods");
  f.print(`/** Revision ${model.revision} as the runtime serves it: wire version ${version}, ${era} era. */`);
  f.print("export const revision: ", typeUse(runtime.RevisionDescriptor), "<typeof ", methods, "> = {");
  f.print(`  name: ${JSON.stringify(model.revision)},`);
  f.print(`  version: ${JSON.stringify(version)},`);
  f.print(`  era: ${JSON.stringify(era)},`);
  f.print(`  batches: ${batches},`);
  f.print("  methods,");
  if (inputRequiredResult)
    f.print("  inputRequiredResult: ", siblingExport(`${inputRequiredResult}Schema`, "schemas"), ",");
  f.print("};");
  return f.render(header);
}

/**
 * `extension.ts` of an extension schema's bindings: the extension identifier, the wire versions of the revisions it
 * extends (`IrExtension.versions`) and its method table (each token states its method's facts), the shape the
 * runtime's client and server take in `extensions: [...]`. The identifier is given by the user (`--extension-id`):
 * the spec defines no way for a schema to state it.
 */
export function emitExtensionFile(model: IrModel, id: string, header = "", ext = ".ts"): string {
  const f = createPrinter({ runtime: () => "", siblingExtension: ext });
  const methods = siblingExport("methods", "methods");
  const versions = model.extension?.versions ?? [];
  const base = model.extension?.base;
  f.print(`/** Extension ${id} (schema ${model.source.path}): pass it in the client's and server's \`extensions\`. */`);
  f.print("export const extension = {");
  f.print(`  id: ${JSON.stringify(id)},`);
  f.print(
    versions.length > 0
      ? `  /** The wire versions of the revisions it extends${base ? ` (its base: ${base.builtin ? "built-in " : ""}revision ${base.revision})` : ""}: it is negotiated under these only. */`
      : "  /** Its base states no version and matches no revision the generator knew: negotiated under every revision. */",
  );
  if (versions.length > 0) f.print(`  versions: ${JSON.stringify(versions)},`);
  f.print("  ", methods, ",");
  f.print("} as const;");
  return f.render(header);
}

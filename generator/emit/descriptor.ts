/**
 * `revision.ts` of a generated revision folder: the revision descriptor (`RevisionDescriptor` of the runtime's
 * method-type module), printed from the IR's protocol facts. Only revisions whose era is known get one: without
 * `initialize` or `server/discover` the bindings cannot be served.
 */
import type { IrModel } from "../ir/model.ts";

export interface DescriptorEmitOptions {
  /** Import specifier of runtime/protocol/method-type.ts as seen from the output directory. */
  readonly runtimeImport: string;
}

/** The descriptor module's text (unformatted, without header), or undefined when the revision has no era. */
export function emitDescriptorFile(model: IrModel, options: DescriptorEmitOptions): string | undefined {
  const { era, version, batches, inputRequiredResult } = model.protocol;
  if (!era) return undefined;
  const inputRequired = inputRequiredResult ? `${inputRequiredResult}Schema` : undefined;
  const imports = [
    `import type { RevisionDescriptor } from ${JSON.stringify(options.runtimeImport)};`,
    `import { methods } from "./methods.ts";`,
    ...(inputRequired ? [`import { ${inputRequired} } from "./schemas.ts";`] : []),
  ];
  const fields = [
    `name: ${JSON.stringify(model.revision)},`,
    `version: ${JSON.stringify(version)},`,
    `era: ${JSON.stringify(era)},`,
    `batches: ${batches},`,
    `methods,`,
    ...(inputRequired ? [`inputRequiredResult: ${inputRequired},`] : []),
  ];
  return (
    `${imports.join("\n")}\n\n` +
    `/** Revision ${model.revision} as the runtime serves it: wire version ${version}, ${era} era. */\n` +
    `export const revision: RevisionDescriptor<typeof methods> = {\n${fields.map((f) => `  ${f}\n`).join("")}};\n`
  );
}

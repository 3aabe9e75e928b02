/**
 * The JSON Schema check generated validators add for keywords zod cannot express (formats, `if`/`then`/`else`,
 * `oneOf` exclusivity, `patternProperties`, …): the original schema, compiled with ajv on first use. ajv is loaded
 * then too (synchronously; it is CommonJS), so importing the runtime does not pay for it.
 */
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import type { z } from "zod";

type AjvModules = {
  readonly draft07: typeof import("ajv").Ajv;
  readonly draft2020: typeof import("ajv/dist/2020.js").Ajv2020;
  readonly addFormats: (ajv: InstanceType<typeof import("ajv").Ajv>) => unknown;
};

let modules: AjvModules | undefined;

function loadAjv(): AjvModules {
  if (modules) return modules;
  const require = createRequire(import.meta.url);
  const formats = require("ajv-formats") as { default: AjvModules["addFormats"] };
  modules = {
    draft07: (require("ajv") as typeof import("ajv")).Ajv,
    draft2020: (require("ajv/dist/2020") as typeof import("ajv/dist/2020.js")).Ajv2020,
    addFormats: formats.default,
  };
  return modules;
}

/** Draft-07 (and -06) schemas get ajv's draft-07 validator; everything else is JSON Schema 2020-12. */
function compile(schema: Readonly<Record<string, unknown>>): ValidateFunction {
  const { draft07, draft2020, addFormats } = loadAjv();
  const isDraft07 = typeof schema["$schema"] === "string" && /draft-0[67]/.test(schema["$schema"]);
  const ajv = isDraft07
    ? new draft07({ strict: false, allErrors: true })
    : new draft2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

/** A zod refinement that checks a value against the original JSON Schema. Compiled on first use. */
export function jsonSchemaCheck(
  schema: Readonly<Record<string, unknown>>,
): (value: unknown, ctx: z.RefinementCtx) => void {
  let validate: ValidateFunction | undefined;
  return (value, ctx) => {
    validate ??= compile(schema);
    if (validate(value)) return;
    for (const error of validate.errors ?? []) {
      const path = error.instancePath
        .split("/")
        .slice(1)
        .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
      ctx.addIssue({
        code: "custom",
        message: `${error.message ?? "is invalid"} (${error.schemaPath})`,
        path,
        input: value,
      });
    }
  };
}

/**
 * Whether a recorded `surface` (read back from `.mcp-gen.json`, which a person may have edited) has the shape
 * `RecordedSurface` promises, so the comparison never meets a missing field.
 */
import type { RecordedSurface } from "./surface-model.ts";

type Check = (value: unknown) => boolean;

const isString: Check = (v) => typeof v === "string";
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const arrayOf =
  (check: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(check);
const shaped =
  (fields: Record<string, Check>, optional: Record<string, Check> = {}): Check =>
  (v) =>
    isObject(v) &&
    Object.entries(fields).every(([k, check]) => check(v[k])) &&
    Object.entries(optional).every(([k, check]) => v[k] === undefined || check(v[k]));

const named = shaped({ name: isString });
const surfaceShape = shaped({
  server: shaped({ name: isString, version: isString }),
  generation: shaped({ runtimeImport: isString, importExtension: isString }),
  capabilities: arrayOf(isString),
  tools: arrayOf(
    shaped({ name: isString, input: isString, scopes: arrayOf(isString), descriptor: isObject }, { output: isString }),
  ),
  resources: arrayOf(shaped({ uri: isString, descriptor: isObject })),
  resourceTemplates: arrayOf(
    shaped({
      name: isString,
      uriTemplate: isString,
      variables: isString,
      completions: arrayOf(isString),
      descriptor: isObject,
    }),
  ),
  prompts: arrayOf(
    shaped({ name: isString, arguments: isString, completions: arrayOf(isString), descriptor: isObject }),
  ),
  types: arrayOf((t) => named(t) && isObject((t as Record<string, unknown>)["type"])),
});

const revisionShape = shaped(
  {
    name: isString,
    version: isString,
    batches: (v) => typeof v === "boolean",
    schema: isString,
    methods: (v) => isObject(v) && Object.values(v).every(isString),
  },
  { bindings: isString, era: (v) => v === "handshake" || v === "stateless" },
);

/** Built-in revisions by name, a user's bindings with their facts; absent: every built-in revision of the runtime. */
const recordedRevisions = arrayOf((r) => isString(r) || revisionShape(r));
const recordedShape: Check = (v) =>
  surfaceShape(v) && isObject(v) && (v["revisions"] === undefined || recordedRevisions(v["revisions"]));

export function isRecordedSurface(value: unknown): value is RecordedSurface {
  return recordedShape(value);
}

/**
 * The one table of what generated code may import: every runtime symbol (with the runtime entry point exporting it,
 * and whether it is a type), zod, and the sibling files of an output folder. Emitters print these symbols and never
 * spell an import; test/generator/emit/printer.test.ts proves each runtime entry is really exported where listed.
 * Every symbol's public home is the core entry (`packageRuntime` imports all of them from it) but an extension's, whose
 * home is its own entry (`tasks`: `@mcp-gen/runtime/tasks`); `entry` names the runtime module defining it, which the
 * runtime's own bindings import relatively (scripts/generate-protocol.ts).
 */
import type { ImportSymbol, RuntimeEntry } from "./printer.ts";

function runtimeValue(name: string, entry: RuntimeEntry): ImportSymbol {
  return { name, from: { kind: "runtime", entry } };
}
function runtimeType(name: string, entry: RuntimeEntry): ImportSymbol {
  return { name, from: { kind: "runtime", entry }, typeOnly: true };
}

/**
 * `import * as z from "zod/mini"`: zod's tree-shakable functional entry, as a namespace import so bundlers keep only
 * what is used (issue 14: classic zod's named `z` kept all 64 locales, 626 → 256 KB; zod/mini drops its methods too).
 */
export const zod: ImportSymbol = { name: "z", from: { kind: "zod" }, namespace: true };

/** A namespace import of a sibling generated file (`import * as S from "./schemas.js"`). */
export function sibling(local: string, file: string): ImportSymbol {
  return { name: local, from: { kind: "sibling", name: file }, namespace: true };
}

/** A named export of a sibling generated file (`import { methods } from "./methods.ts"`). */
export function siblingExport(name: string, file: string): ImportSymbol {
  return { name, from: { kind: "sibling", name: file } };
}

/** A namespace import of any other relative module (`import * as Spec from "../spec/schema.ts"`). */
export function relativeModule(local: string, specifier: string): ImportSymbol {
  return { name: local, from: { kind: "relative", specifier }, namespace: true };
}

/**
 * A built-in revision's bindings as a namespace whose `revision` export is its descriptor, from the runtime's
 * `protocol/<name>` entry as the caller spells it (`import * as revision_2025_11_25 from
 * "@mcp-gen/runtime/protocol/2025-11-25"`), so code that names it pulls in that revision only.
 */
export function builtinRevision(local: string, specifier: string): ImportSymbol {
  return { name: local, from: { kind: "runtime-module", specifier }, namespace: true };
}

export const runtime = {
  // Server side (`@mcp-gen/runtime`).
  McpServer: runtimeValue("McpServer", "core"),
  builtinRevisions: runtimeValue("builtinRevisions", "core"),
  registerTypedTools: runtimeValue("registerTypedTools", "core"),
  layerCapabilities: runtimeValue("layerCapabilities", "core"),
  ServerRequestHandler: runtimeType("ServerRequestHandler", "core"),
  jsonSchemaCheck: runtimeValue("jsonSchemaCheck", "core"),
  Awaitable: runtimeType("Awaitable", "core"),
  Completer: runtimeType("Completer", "core"),
  ContentToolResult: runtimeType("ContentToolResult", "core"),
  GetPromptResult: runtimeType("GetPromptResult", "core"),
  ReadResourceResult: runtimeType("ReadResourceResult", "core"),
  RequestContext: runtimeType("RequestContext", "core"),
  ServerOptions: runtimeType("ServerOptions", "core"),
  StructuredToolResult: runtimeType("StructuredToolResult", "core"),
  TypedToolValidators: runtimeType("TypedToolValidators", "core"),
  ToolInputSchema: runtimeType("ToolInputSchema", "core"),
  ToolDefinition: runtimeType("ToolDefinition", "core"),
  ResourceDefinition: runtimeType("ResourceDefinition", "core"),
  ResourceTemplateDefinition: runtimeType("ResourceTemplateDefinition", "core"),
  PromptDefinition: runtimeType("PromptDefinition", "core"),
  // Client side.
  McpClient: runtimeType("McpClient", "core"),
  callStructured: runtimeValue("callStructured", "core"),
  callTool: runtimeValue("callTool", "core"),
  expandUriTemplate: runtimeValue("expandUriTemplate", "core"),
  getPrompt: runtimeValue("getPrompt", "core"),
  CallOptions: runtimeType("CallOptions", "core"),
  CallToolResult: runtimeType("CallToolResult", "core"),
  StructuredToolCall: runtimeType("StructuredToolCall", "core"),
  // The Tasks extension (`@mcp-gen/runtime/tasks`): its server feature with a server's options, the tools that may
  // run as tasks, and the task forms of typed client calls.
  tasks: runtimeValue("tasks", "tasks"),
  // MCP Apps (`@mcp-gen/runtime/apps`): the server feature and the views served as ui:// resources.
  apps: runtimeValue("apps", "apps"),
  serveViews: runtimeValue("serveViews", "apps"),
  AppView: runtimeType("AppView", "apps"),
  // Skills (`@mcp-gen/runtime/skills`): the server feature, its options, the catalog and the embedded files.
  skills: runtimeValue("skills", "skills"),
  embeddedSkillFiles: runtimeValue("embeddedSkillFiles", "skills"),
  SkillsOptions: runtimeType("SkillsOptions", "skills"),
  StaticSkill: runtimeType("StaticSkill", "skills"),
  EmbeddedSkillFile: runtimeType("EmbeddedSkillFile", "skills"),
  taskTools: runtimeValue("taskTools", "tasks"),
  TasksOptions: runtimeType("TasksOptions", "tasks"),
  callToolTask: runtimeValue("callToolTask", "tasks"),
  callStructuredTask: runtimeValue("callStructuredTask", "tasks"),
  TaskHandle: runtimeType("TaskHandle", "tasks"),
  // Method tokens of the protocol bindings (defined in runtime/protocol/method-type.ts).
  ProtocolRequestType: runtimeValue("ProtocolRequestType", "method-type"),
  ProtocolNotificationType: runtimeValue("ProtocolNotificationType", "method-type"),
  MethodTable: runtimeType("MethodTable", "method-type"),
  RevisionDescriptor: runtimeType("RevisionDescriptor", "method-type"),
  // Validator helpers (defined in runtime/protocol/zod-helpers.ts).
  optionalKey: runtimeValue("optionalKey", "zod-helpers"),
  built: runtimeValue("built", "zod-helpers"),
  openObject: runtimeValue("openObject", "zod-helpers"),
  closedObject: runtimeValue("closedObject", "zod-helpers"),
  indexedObject: runtimeValue("indexedObject", "zod-helpers"),
  ownKeys: runtimeValue("ownKeys", "zod-helpers"),
  objectValue: runtimeValue("objectValue", "zod-helpers"),
  exactly: runtimeValue("exactly", "zod-helpers"),
  ObjectSchema: runtimeType("ObjectSchema", "zod-helpers"),
} as const satisfies Record<string, ImportSymbol>;

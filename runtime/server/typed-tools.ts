/**
 * What generated server stubs (`mcp-gen generate`) build on: the result types their handler interfaces use and
 * `registerTypedTools`, which registers the manifest's tools with their validators, output checks and scopes.
 * The generator pairs each handler with its validators; the handler's precise types live in the generated
 * `ServerHandlers` interface, so nothing here is generic over the tool registry (cheap for the user's tsc).
 */
import type { Awaitable } from "../protocol/helper-types.ts";
import type { CallToolResult, ContentBlock, ToolDefinition } from "../protocol/builtin-types.ts";
import type { Validator } from "../protocol/validation.ts";
import type { RequestContext } from "./context.ts";
import type { McpServer } from "./server.ts";

/** A tool result's `_meta`, as every built-in revision allows it. */
type ResultMeta = NonNullable<CallToolResult["_meta"]>;

/**
 * What a handler of a tool with an `outputSchema` returns: `structuredContent` must be the tool's output type
 * (anything else is a compile error). `content` defaults to the JSON text of `structuredContent`.
 *
 * The success branch comes last on purpose: a wrong `{ structuredContent }` matches neither branch, and tsc explains
 * the error against one of them. With the success branch last, TypeScript 5.9 and 7 both pick it and name the wrong
 * field and its expected type; with it first, TypeScript 7 picked the `isError` branch and said only "not assignable
 * to type 'undefined'" (its `structuredContent?: never`).
 * (test/manifest/compile.test.ts checks the diagnostics under both.)
 */
export type StructuredToolResult<Output> =
  | {
      readonly isError: true;
      readonly content: readonly ContentBlock[];
      readonly structuredContent?: never;
      readonly _meta?: ResultMeta;
    }
  | {
      readonly structuredContent: Output;
      readonly content?: readonly ContentBlock[];
      readonly isError?: false;
      readonly _meta?: ResultMeta;
    };

/** What a handler of a tool without an `outputSchema` returns: content only. */
export type ContentToolResult = {
  readonly content: readonly ContentBlock[];
  readonly isError?: boolean;
  readonly structuredContent?: never;
  readonly _meta?: ResultMeta;
};

/** A tool handler of a generated server; its input is typed by the generated `ServerHandlers` (`never` here: any fits). */
export type TypedToolHandler = (
  input: never,
  context: RequestContext,
) => Awaitable<StructuredToolResult<unknown> | ContentToolResult>;

/** The tool handlers of a generated server, by tool name (the generated `ServerHandlers["tools"]`). */
export type TypedToolHandlers = { readonly [name: string]: TypedToolHandler };

/** A tool's validators (generated schemas.ts, `toolValidators`). */
export interface TypedToolValidators {
  /** Validates `arguments` before the handler runs. */
  readonly input: Validator<unknown>;
  /** Validates `structuredContent` after the handler returns (tools with an `outputSchema`). */
  readonly output?: Validator<unknown>;
}

/** The tools of a generated server: the tool list and, by tool name, validators and required scopes. */
export interface TypedTools {
  readonly definitions: readonly ToolDefinition[];
  readonly validators: Readonly<Record<string, TypedToolValidators>>;
  /** OAuth scopes a caller needs (the manifest's `scopes`); the HTTP bearer auth enforces them. */
  readonly scopes: Readonly<Record<string, readonly string[]>>;
  /** By tool name, its options for the server's extensions (`ToolOptions.extensions`, e.g. the manifest's `task`). */
  readonly extensions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/**
 * Registers the tools of a generated server in list order, each with its handler from `handlers` (found by tool name
 * and called as a method of `handlers`). A handler only ever receives what its input validator accepted.
 */
export function registerTypedTools(server: McpServer, handlers: TypedToolHandlers, tools: TypedTools): void {
  const own = (record: object, key: string) => Object.prototype.hasOwnProperty.call(record, key);
  for (const definition of tools.definitions) {
    const name = definition.name;
    const handler = handlers[name]; // not only own properties: handlers may be methods of a class
    const validators = own(tools.validators, name) ? tools.validators[name] : undefined;
    if (typeof handler !== "function") throw new TypeError(`no handler for tool "${name}"`);
    if (!validators) throw new TypeError(`no validators for tool "${name}"`);
    const call = handler as (input: unknown, context: RequestContext) => Awaitable<CallToolResult>;
    const run = (input: unknown, context: RequestContext) => call.call(handlers, input, context);
    const scopes = own(tools.scopes, name) ? tools.scopes[name] : undefined;
    const extensions = tools.extensions && own(tools.extensions, name) ? tools.extensions[name] : undefined;
    server.tool<unknown>(definition, run, {
      arguments: validators.input,
      ...(validators.output ? { output: validators.output } : {}),
      ...(scopes && scopes.length > 0 ? { scopes } : {}),
      ...(extensions ? { extensions } : {}),
    });
  }
}

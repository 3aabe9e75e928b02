/**
 * Lowering follows `import` / `import type` of relative modules (extension schemas importing their base): imported
 * declarations resolve (an alias renames the declaration and every reference to it), interfaces may extend them,
 * and only the importing schema's messages become methods. What it cannot follow is an error with file:line.
 * Small in-memory schemas; the real Tasks extension is test/protocol/extension-tasks.test.ts.
 */
import { describe, expect, it } from "vitest";
import { lowerSchemaWithWarnings } from "../../../generator/lower/schema.ts";

const BASE = `
export interface Result { _meta?: { [key: string]: unknown }; [key: string]: unknown }
export interface Error { code: number; message: string }
export interface JSONRPCRequest { jsonrpc: "2.0"; id: string | number; method: string; params?: { [key: string]: unknown } }
export interface JSONRPCNotification { jsonrpc: "2.0"; method: string; params?: { [key: string]: unknown } }
export interface JSONRPCErrorResponse { jsonrpc: "2.0"; id: string | number; error: Error }
export interface PingRequest extends JSONRPCRequest { method: "ping" }
export type ClientRequest = PingRequest;
export interface Unused { x: string }
`;

function lower(schema: string, modules: Record<string, string> = { "ext/base.ts": BASE }) {
  return lowerSchemaWithWarnings({
    text: schema,
    displayPath: "ext/schema.ts",
    revision: "ext",
    readImport: (specifier, importer) => {
      const file = `${importer.slice(0, importer.lastIndexOf("/") + 1)}${specifier.slice(2).replace(/\.js$/, ".ts")}`;
      const text = modules[file];
      if (text === undefined) throw new Error(`no such file ${file}`);
      return { text, displayPath: file };
    },
  });
}

const EXTENSION = `import type { Error as RpcError, JSONRPCRequest, JSONRPCNotification, Result } from "./base.js";

export interface Note { id: string; failure?: RpcError }
export interface LoudNote extends Note { loud: true }
export type AddNoteRequest = JSONRPCRequest & { method: "notes/add"; params: { text: string } };
export type AddNoteResult = Result & { note: Note };
export type NoteAddedNotification = JSONRPCNotification & { method: "notifications/notes/added"; params: { id: string } };
`;

describe("lowering an extension schema that imports its base", () => {
  it("pulls in the imported declarations under their local names, and what they reference", () => {
    const { model } = lower(EXTENSION);
    const names = model.types.map((t) => t.name);
    expect(names.slice(0, 5)).toEqual(["Note", "LoudNote", "AddNoteRequest", "AddNoteResult", "NoteAddedNotification"]);
    expect(names.slice(5).sort()).toEqual(["JSONRPCNotification", "JSONRPCRequest", "Result", "RpcError"]);
    const note = model.types.find((t) => t.name === "Note")!;
    expect(note.type).toMatchObject({
      props: [{ name: "id" }, { name: "failure", type: { kind: "ref", name: "RpcError" } }],
    });
    const loud = model.types.find((t) => t.name === "LoudNote")!;
    expect(loud.type.kind === "object" && loud.type.props.map((p) => p.name)).toEqual(["id", "failure", "loud"]);
    expect(model.types.find((t) => t.name === "RpcError")!.location).toEqual({ file: "ext/base.ts", line: 3 });
  });

  it("makes methods of the extension's own messages only, paired by naming, in both directions with a warning", () => {
    const { model, warnings } = lower(EXTENSION);
    expect(model.methods.map((m) => [m.method, m.kind, m.direction])).toEqual([
      ["notes/add", "request", "both"],
      ["notifications/notes/added", "notification", "both"],
    ]);
    expect(model.methods[0]).toMatchObject({ result: { kind: "ref", name: "AddNoteResult" }, resultSource: "naming" });
    expect(model.protocol.era).toBeUndefined();
    expect(warnings).toEqual([
      "ext/schema.ts:5: AddNoteRequest, NoteAddedNotification: in no direction union (ClientRequest, ServerRequest, " +
        "ClientNotification, ServerNotification, InputRequest), so sent in both directions; declare the unions in " +
        "the schema to narrow them",
    ]);
  });

  it("takes the directions from the extension's own direction unions", () => {
    const { model, warnings } = lower(
      `${EXTENSION}export type ClientRequest = AddNoteRequest;\nexport type ServerNotification = NoteAddedNotification;\n`,
    );
    expect(model.methods.map((m) => [m.method, m.direction])).toEqual([
      ["notes/add", "clientToServer"],
      ["notifications/notes/added", "serverToClient"],
    ]);
    expect(warnings).toEqual([]);
  });

  it("renames every reference to an aliased import inside pulled declarations", () => {
    const { model } = lower(
      `import type { Error as RpcError, JSONRPCErrorResponse } from "./base.js";\nexport interface X { e: RpcError; r: JSONRPCErrorResponse }\n`,
    );
    const response = model.types.find((t) => t.name === "JSONRPCErrorResponse")!;
    expect(JSON.stringify(response.type)).toContain('"name":"RpcError"');
    expect(model.types.map((t) => t.name)).not.toContain("Error");
  });

  it("reports what it cannot follow with file:line", () => {
    expect(() => lower(`import type { Nope } from "./base.js";\nexport interface X { a: Nope }\n`)).toThrow(
      /^ext\/schema\.ts:1: \.\/base\.js declares no exported type Nope$/,
    );
    expect(() => lower(`\nimport type { Result } from "./missing.js";\n`)).toThrow(
      /^ext\/schema\.ts:2: cannot read the import "\.\/missing\.js": no such file ext\/missing\.ts$/,
    );
    expect(() => lower(`import type { z } from "zod";\n`)).toThrow(
      /^ext\/schema\.ts:1: unsupported import of "zod": a package name, which stands for no file here; name the revision it stands for \(mcp-gen protocol --base <revision>\)$/,
    );
    expect(() => lower(`import type * as B from "./base.js";\n`)).toThrow(
      /^ext\/schema\.ts:1: unsupported import form/,
    );
    expect(() => lower(`import type { Result } from "./base.js";\nexport interface Result { a: string }\n`)).toThrow(
      /^ext\/schema\.ts:2: Result is declared here and imported/,
    );
    expect(() =>
      lowerSchemaWithWarnings({
        text: `import type { Result } from "./base.js";\n`,
        displayPath: "s.ts",
        revision: "x",
      }),
    ).toThrow(/^s\.ts:1: cannot follow the import of "\.\/base\.js" here$/);
  });

  it("refuses a circular import", () => {
    const modules = {
      "ext/a.ts": `import type { B } from "./b.js";\nexport interface A { b: B }\n`,
      "ext/b.ts": `import type { A } from "./a.js";\nexport interface B { a?: A }\n`,
    };
    expect(() => lower(`import type { A } from "./a.js";\nexport interface X { a: A }\n`, modules)).toThrow(
      /circular import/,
    );
  });
});

describe("extension inputs of other shapes", () => {
  const base = lowerSchemaWithWarnings({
    text: `${BASE}export interface RequestParams { _meta: { [key: string]: unknown } }
export interface PagedParams extends RequestParams { cursor?: string }
export interface PagedRequest extends JSONRPCRequest { params: PagedParams }
export interface Request { method: string; params?: { [key: string]: unknown } }
export type EmptyResult = Result;
export const LATEST_PROTOCOL_VERSION = "2030-01-01";
`,
    displayPath: "base/schema.ts",
    revision: "base",
  }).model;

  it("takes a package-name import from the base revision given for package names", () => {
    const { model } = lowerSchemaWithWarnings({
      text: `import type { Result } from "@modelcontextprotocol/client";\nexport interface NoteResult extends Result { note: string }\n`,
      displayPath: "ext/schema.ts",
      revision: "ext",
      packageBase: base,
    });
    expect(model.extension?.imports).toEqual([
      { module: "@modelcontextprotocol/client", version: "2030-01-01", names: [{ name: "Result", local: "Result" }] },
    ]);
    expect(model.types.find((t) => t.name === "Result")!.location).toEqual({ file: "base/schema.ts", line: 2 });
  });

  it("reports an override that drops what its parent requires, and keeps the parent's members", () => {
    const { model, warnings } = lowerSchemaWithWarnings({
      text: `import type { PagedRequest, Result } from "@x/base";\n\nexport interface ReadDirRequest extends PagedRequest {\n  method: "dir/read";\n  params: { uri: string; cursor?: string };\n}\nexport interface ReadDirResult extends Result { entries: string[] }\n`,
      displayPath: "ext/schema.ts",
      revision: "ext",
      packageBase: base,
    });
    expect(warnings).toContain(
      "ext/schema.ts:3: ReadDirRequest does not fit PagedRequest (TS2430): its params lack _meta, which PagedRequest's params (PagedParams) require; the bindings follow PagedRequest: params carry _meta as declared there",
    );
    const params = model.methods.find((m) => m.method === "dir/read")!.params!;
    expect(params.kind === "object" && params.props.map((p) => [p.name, p.optional])).toEqual([
      ["_meta", false],
      ["uri", false],
      ["cursor", true],
    ]);
  });

  it("takes a request written without its JSON-RPC envelope as a request, and says so", () => {
    const { model, warnings } = lowerSchemaWithWarnings({
      text: `import type { Request, Result } from "@x/base";\nexport interface GetNoteRequest extends Request {\n  method: "notes/get";\n  params: { id: string };\n}\nexport interface GetNoteResult extends Result { text: string }\nexport interface ViewOnlyRequest { method: "view/only"; params: { a: string } }\nexport interface ViewOnlyResult { b: string }\n`,
      displayPath: "ext/schema.ts",
      revision: "ext",
      packageBase: base,
    });
    expect(model.methods.map((m) => [m.method, m.kind])).toEqual([["notes/get", "request"]]);
    expect(warnings).toContain(
      'ext/schema.ts:2: GetNoteRequest extends Request, which carries no jsonrpc or id (a message without its JSON-RPC envelope): taken as the request "notes/get", framed as the base revision frames every request; its params are as declared',
    );
  });
});

/**
 * A made-up extension, written here as a user would (a request, a notification and its capability settings,
 * importing a base revision's schema), goes through the installed CLI (`mcp-gen protocol`) and then the runtime, with
 * nothing in mcp-gen knowing it: once against the 2026-07-28 base (stateless era: `server/discover` and per-request
 * `_meta`), once against the 2025-11-25 base (handshake era: `initialize`). The base file is the spec's own
 * schema.ts of that revision, copied next to the extension's schema as extension repositories vendor it.
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  McpServer,
  ProtocolUsageError,
  type ClientExtension,
  type ProtocolNotificationType,
  type ProtocolRequestType,
  type ServerExtension,
} from "../../runtime/index.ts";
import { JsonRpcEngine } from "../../runtime/advanced.ts";
import { StreamableHttpClientTransport } from "../../runtime/http/index.ts";
import { serve } from "../../runtime/http/server/node.ts";
import { cli, REPO } from "../generator/cli-run.ts";
import { requireSpecRoot } from "../../scripts/spec-inputs.ts";
import { RUNTIME_AS_INSTALLED } from "../package/runtime-declarations.ts";

const ID = "com.example/notes";
const root = path.join(REPO, ".tmp", `extension-made-up-${process.pid}`);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The extension's schema.ts: its own declarations only, the rest imported from the base it was written against. */
const SCHEMA = `import type { JSONRPCNotification, JSONRPCRequest, NotificationParams, Result } from "./base.js";

/** The extension's settings object in capabilities.extensions. */
export interface NotesExtensionCapability {
  /** The most notes the server keeps. */
  maxNotes?: number;
}

/** Adds a note. */
export type AddNoteRequest = JSONRPCRequest & {
  method: "notes/add";
  params: { text: string };
};

export type AddNoteResult = Result & { id: string; count: number };

/** A note was added (sent by either side). */
export type NoteAddedNotification = JSONRPCNotification & {
  method: "notifications/notes/added";
  params: NotificationParams & { id: string };
};
`;

/** Exported interface and type alias names of a TypeScript file, by the compiler's parser. */
function declaredNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  return source.statements.flatMap((s) =>
    (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) &&
    s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      ? [s.name.text]
      : [],
  );
}

/** Writes the extension over a copy of `base`'s schema (edited by `editBase`) and runs the CLI on it. */
async function generate(name: string, base: string, editBase?: (text: string) => string) {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, "spec"), { recursive: true });
  const basePath = path.join(dir, "spec/base.ts");
  copyFileSync(path.join(requireSpecRoot(), base, "schema.ts"), basePath);
  if (editBase) writeFileSync(basePath, editBase(readFileSync(basePath, "utf8")));
  writeFileSync(path.join(dir, "spec/schema.ts"), SCHEMA);
  const run = await cli(
    dir,
    ...["protocol", "--schema", "spec/schema.ts", "--revision", "notes", "--extension-id", ID],
    ...["--out", "notes", "--import-extension", ".ts"],
  );
  return { run, dir, out: path.join(dir, "notes"), basePath };
}

/**
 * The generated index module, as this test (compiled before the bindings exist) sees it; how a user's code types
 * against the real bindings is checked by tsc on a user file (`use.ts`).
 */
interface NotesBindings {
  readonly extension: ServerExtension & ClientExtension & { readonly versions: readonly string[] };
  readonly methods: {
    readonly "notes/add": ProtocolRequestType<"notes/add", { text: string }, { id: string; count: number }>;
    readonly "notifications/notes/added": ProtocolNotificationType<"notifications/notes/added", { id: string }>;
  };
}

/** A user's file against the generated bindings: typed calls, and a wrong one that must fail tsc. */
const USE = `import type { McpClient } from "@mcp-gen/runtime";
import { extension, methods, type AddNoteResult } from "./notes/index.ts";

export const id: string = extension.id;
export async function use(client: McpClient): Promise<number> {
  const added: AddNoteResult = await client.request(methods["notes/add"], { text: "milk" });
  // @ts-expect-error notes/add needs its text
  await client.request(methods["notes/add"], {});
  await client.notify(methods["notifications/notes/added"], { id: added.id });
  return added.count;
}
`;

const execFileAsync = promisify(execFile);

const ERAS = [
  { base: "2026-07-28", era: "stateless" },
  { base: "2025-11-25", era: "handshake" },
] as const;

/** Both bases' CLI runs, started before either block below, so one tsc run can check both outputs. */
const generations = new Map<string, ReturnType<typeof generate>>();
beforeAll(() => {
  for (const { base } of ERAS) generations.set(base, generate(base, base));
});

let checked: Promise<string> | undefined;

/**
 * tsc over the generated folder and the user's file of every base, as the user's strict NodeNext project compiles
 * them (one TypeScript start for both; the runtime as installed, its .d.ts); the diagnostics of `folder`, and of no base's.
 */
async function typeCheck(folder: string): Promise<string> {
  checked ??= Promise.all(generations.values()).then(async (all) => {
    for (const { dir } of all) writeFileSync(path.join(dir, "use.ts"), USE);
    const include = all.flatMap(({ dir }) => [`${path.basename(dir)}/notes/*.ts`, `${path.basename(dir)}/use.ts`]);
    const extendsRepo = path.relative(root, path.join(REPO, "tsconfig.json"));
    const tsconfig = { extends: extendsRepo, compilerOptions: RUNTIME_AS_INSTALLED, include, exclude: [] };
    writeFileSync(path.join(root, "tsconfig.json"), JSON.stringify(tsconfig));
    const tsc = path.join(REPO, "node_modules/typescript/bin/tsc");
    return execFileAsync(process.execPath, [tsc, "--noEmit", "--pretty", "false", "-p", root], { cwd: root }).then(
      () => "",
      (error: { stdout?: string; stderr?: string }) => error.stdout || error.stderr || String(error),
    );
  });
  const others = ERAS.map(({ base }) => `${base}/`).filter((prefix) => prefix !== `${path.basename(folder)}/`);
  // One diagnostic per unindented line (`file(line,col): error TS…`), its continuation lines indented.
  return (await checked)
    .split(/\n(?=\S)/)
    .filter((d) => d.trim() !== "" && !others.some((prefix) => d.startsWith(prefix)))
    .join("\n");
}

describe.each(ERAS)("a made-up extension of $base ($era era)", ({ base, era }) => {
  let notes: NotesBindings;
  let dir: string;
  let folder: string;
  beforeAll(async () => {
    const generated = await generations.get(base)!;
    // The one warning: the schema declares no direction unions, so its messages go both ways.
    expect(generated.run.stderr).toMatch(
      /^mcp-gen: warning: spec\/schema\.ts:\d+: AddNoteRequest, NoteAddedNotification: in no direction union[^\n]*\n$/,
    );
    expect(generated.run.code).toBe(0);
    dir = generated.out;
    folder = generated.dir;
    notes = (await import(path.join(dir, "index.ts"))) as NotesBindings;
  }, 120_000);

  it("generates the extension's own declarations, referring to the built-in revision for the rest", () => {
    expect(declaredNames(path.join(dir, "types.ts"))).toEqual([
      "NotesExtensionCapability",
      "AddNoteRequest",
      "AddNoteResult",
      "NoteAddedNotification",
    ]);
    for (const file of ["types.ts", "schemas.ts"])
      expect(readFileSync(path.join(dir, file), "utf8")).toContain(`from "@mcp-gen/runtime/protocol/${base}"`);
    expect(notes.extension.id).toBe(ID);
    expect(notes.extension.versions).toEqual([base]);
    expect(Object.keys(notes.extension.methods).sort()).toEqual(["notes/add", "notifications/notes/added"]);
  });

  it("type-checks, with a user's typed calls, under strict + exactOptionalPropertyTypes (NodeNext)", async () => {
    expect(await typeCheck(folder)).toBe("");
  }, 300_000);

  function notesServer(added: string[]): McpServer {
    const server = new McpServer({
      revisions: builtinRevisions,
      info: { name: "notes", version: "1" },
      extensions: [{ ...notes.extension, settings: { maxNotes: 10 } }],
    });
    server.setRequestHandler(notes.methods["notes/add"], ({ text }) => {
      added.push(text);
      return { id: `n${added.length}`, count: added.length };
    });
    server.setNotificationHandler(
      notes.methods["notifications/notes/added"],
      ({ id }) => void added.push(`seen ${id}`),
    );
    return server;
  }

  const only = builtinRevisions.filter((r) => r.version === base);

  it("negotiates it and serves its request and notification over Streamable HTTP", async () => {
    const added: string[] = [];
    const running = await serve(notesServer(added));
    try {
      const client = new McpClient({
        info: { name: "c", version: "1" },
        revisions: only,
        extensions: [notes.extension],
      });
      await client.connect(new StreamableHttpClientTransport(running.url));
      expect(client.revision).toBe(base);
      expect(client.serverCapabilities["extensions"]).toEqual({ [ID]: { maxNotes: 10 } });
      expect(client.capabilities).toEqual({ extensions: { [ID]: {} } });
      const result = await client.request(notes.methods["notes/add"], { text: "milk" });
      expect(result).toMatchObject({ id: "n1", count: 1 });
      if (era === "handshake") {
        // Client notifications belong to a session; over HTTP the stateless era has none to carry one (see report).
        await client.notify(notes.methods["notifications/notes/added"], { id: "n1" });
        await expect.poll(() => added).toEqual(["milk", "seen n1"]);
      } else expect(added).toEqual(["milk"]);
      // The generated params schema validates: text is required.
      await expect(client.request(notes.methods["notes/add"], {} as unknown as { text: string })).rejects.toThrow();
      await client.close();
    } finally {
      await running.close();
    }
  });

  /** A raw client: the `notes/add` request as the era frames it, with the given client capabilities. */
  async function rawAdd(capabilities: Record<string, unknown>, under = base) {
    const added: string[] = [];
    const [a, b] = createMemoryTransportPair();
    await notesServer(added).connect(b);
    const peer = new JsonRpcEngine(a, { onRequest: () => ({}), onNotification: () => undefined });
    await peer.start();
    const info = { name: "raw", version: "1" };
    const handshake = builtinRevisions.find((r) => r.version === under)?.era === "handshake";
    if (handshake) {
      const init = (await peer.request("initialize", { protocolVersion: under, capabilities, clientInfo: info })) as {
        capabilities: Record<string, unknown>;
      };
      await peer.notify("notifications/initialized", {});
      const outcome = await peer.request("notes/add", { text: "x" }).then(
        (r) => ({ result: r }),
        (e: unknown) => ({ error: e }),
      );
      return { added, outcome, advertised: init.capabilities["extensions"] };
    }
    const discovered = (await peer.request("server/discover", {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": under,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": info,
      },
    })) as { capabilities: Record<string, unknown> };
    const params = {
      text: "x",
      _meta: {
        "io.modelcontextprotocol/protocolVersion": under,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": info,
      },
    };
    const outcome = await peer.request("notes/add", params).then(
      (r) => ({ result: r }),
      (e: unknown) => ({ error: e }),
    );
    return { added, outcome, advertised: discovered.capabilities["extensions"] };
  }

  it("answers -32021 naming the extension when the request does not declare it", async () => {
    const { added, outcome, advertised } = await rawAdd({});
    expect(advertised).toEqual({ [ID]: { maxNotes: 10 } });
    expect(outcome).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { extensions: { [ID]: {} } } } },
    });
    expect(added).toEqual([]);
    const declared = await rawAdd({ extensions: { [ID]: {} } });
    expect(declared.outcome).toEqual({ result: expect.objectContaining({ id: "n1", count: 1 }) });
  });

  it("is neither advertised nor served under a revision it does not extend", async () => {
    const other = base === "2026-07-28" ? "2025-11-25" : "2026-07-28";
    const { added, outcome, advertised } = await rawAdd({ extensions: { [ID]: {} } }, other);
    expect(advertised).toBeUndefined();
    expect(outcome).toMatchObject({ error: { code: -32601 } });
    expect(added).toEqual([]);
    // A client offered both revisions, when the server serves only the other: not declared, refused locally.
    const server = new McpServer({
      revisions: builtinRevisions.filter((r) => r.version === other),
      info: { name: "plain", version: "1" },
      extensions: [notes.extension],
    });
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const client = new McpClient({
      info: { name: "c", version: "1" },
      revisions: builtinRevisions.filter((r) => r.version === other || r.version === base),
      extensions: [notes.extension],
    });
    await client.connect(a);
    expect(client.revision).toBe(other);
    expect(client.capabilities["extensions"]).toBeUndefined();
    await expect(client.request(notes.methods["notes/add"], { text: "x" })).rejects.toBeInstanceOf(ProtocolUsageError);
    await client.close();
  });
});

describe("a made-up extension whose base differs from every revision", () => {
  it("reports each differing base declaration with its location, and declares copies", async () => {
    // The base's Result loses `_meta`'s companion: one property of one type, changed as a vendored copy might drift.
    const { run, out, basePath } = await generate("drifted", "2026-07-28", (text) =>
      text.replace(/export interface Result \{/, "export interface Result {\n  drift: number;"),
    );
    expect(run.code).toBe(0);
    const line = readFileSync(basePath, "utf8")
      .split("\n")
      .findIndex((l) => l.startsWith("export interface Result {"));
    expect(run.stderr).toContain(
      `spec/base.ts:${line + 1}: Result differs from revision 2026-07-28: property drift: (absent) there, number here`,
    );
    expect(run.stderr).toMatch(/match no known revision .*so the bindings declare copies of them/);
    const declared = declaredNames(path.join(out, "types.ts"));
    expect(declared).toContain("Result");
    expect(readFileSync(path.join(out, "types.ts"), "utf8")).not.toContain("@mcp-gen/runtime/protocol/");
  }, 120_000);
});

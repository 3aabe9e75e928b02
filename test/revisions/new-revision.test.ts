/**
 * The proof (issue 12): a user makes a revision of their own and both sides speak it, with no change to
 * mcp-gen and no rebuild of the runtime package. A released schema.ts is copied and modified (a new method, a
 * renamed wire version `LATEST_PROTOCOL_VERSION`, a stray top-level `;`, interface declaration merging, a property
 * typed `never`); `mcp-gen protocol` generates it into a project in a temp folder outside the repository, which
 * installs the packed runtime tarball and zod; there a server and a client are given the generated descriptor as a
 * value, negotiate it and call the new method through its typed token. Done for both eras: a copy of 2026-07-28
 * (stateless, negotiated by `server/discover`) and of 2025-11-25 (handshake, negotiated by `initialize`).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireSpecRoot } from "../../scripts/spec-inputs.ts";
import { CLI } from "../generator/cli-run.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
const SPEC = requireSpecRoot();
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const pinned = (name: string): string =>
  (
    JSON.parse(readFileSync(path.join(REPO, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version: string }>;
    }
  ).packages[`node_modules/${name}`]!.version;

/** A released schema.ts with a method of our own, a wire version of our own and constructs tsc accepts. */
function draftSchema(released: string, version: string): string {
  let text = readFileSync(path.join(SPEC, released, "schema.ts"), "utf8");
  const latest = /export const LATEST_PROTOCOL_VERSION = "[^"]*";/;
  if (!latest.test(text)) throw new Error(`${released}: no LATEST_PROTOCOL_VERSION`);
  text = text.replace(latest, `export const LATEST_PROTOCOL_VERSION = ${JSON.stringify(version)};`);
  for (const [union, member] of [
    ["ClientRequest", "EchoRequest"],
    ["ServerResult", "EchoResult"],
  ] as const) {
    const head = `export type ${union} =\n`;
    if (!text.includes(head)) throw new Error(`${released}: no ${union} union`);
    text = text.replace(head, `${head}  | ${member}\n`);
  }
  return `${text}
/** Params of echo/say. */
export interface EchoRequestParams extends RequestParams {
  /** What to echo. */
  text: string;
}

/** A method no released revision has. */
export interface EchoRequest extends JSONRPCRequest {
  method: "echo/say";
  params: EchoRequestParams;
}

/** The echo. */
export interface EchoResult extends Result {
  echoed: string;
}
;
/** Declaration merging: the rest of EchoResult. */
export interface EchoResult {
  /** How many characters were echoed. */
  count?: number;
}

/** Declaration merging: a field nobody may send. */
export interface EchoRequestParams {
  retired?: never;
}
`;
}

const MAIN = `import { createMemoryTransportPair, McpClient, McpServer, type RevisionDescriptor } from "@mcp-gen/runtime";
import * as stateless from "./stateless-draft/index.ts";
import * as handshake from "./handshake-draft/index.ts";

async function talk<D extends RevisionDescriptor<typeof stateless.methods | typeof handshake.methods>>(
  revision: D,
  echo: typeof stateless.methods["echo/say"] | typeof handshake.methods["echo/say"],
) {
  const server = new McpServer({ info: { name: "draft-server", version: "1.0.0" }, revisions: [revision] });
  server.setRequestHandler(echo, (params) => ({ echoed: params.text.toUpperCase(), count: params.text.length }));
  const [serverSide, clientSide] = createMemoryTransportPair();
  await server.connect(serverSide);
  const client = new McpClient({ info: { name: "draft-client", version: "1.0.0" }, revisions: [revision] });
  await client.connect(clientSide);
  const result = await client.request(echo, { text: "hello" });
  const echoed: string = result.echoed;
  const summary = { revision: client.revision, era: client.era, echoed, count: result.count ?? null };
  await client.close();
  await server.close();
  return summary;
}

const out = {
  stateless: await talk(stateless.revision, stateless.methods["echo/say"]),
  handshake: await talk(handshake.revision, handshake.methods["echo/say"]),
};
console.log(JSON.stringify(out));
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    strict: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: false,
    rewriteRelativeImportExtensions: true,
    rootDir: "src",
    outDir: "build",
    types: ["node"],
  },
  include: ["src"],
};

let scratch: string;
let app: string;
const npmFlags = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-new-revision-"));
  // Packing builds the runtime (prepack), so the tarball holds this checkout's runtime.
  execFileSync("npm", ["pack", "-w", "runtime", "--pack-destination", scratch, "--loglevel=error"], {
    cwd: REPO,
    stdio: "pipe",
    timeout: 400_000,
  });
  const tarball = readdirSync(scratch).find((f) => f.startsWith("mcp-gen-runtime-") && f.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack -w runtime wrote no tarball");
  app = path.join(scratch, "app");
  mkdirSync(path.join(app, "src"), { recursive: true });
  writeFileSync(
    path.join(app, "package.json"),
    JSON.stringify({ name: "draft-app", version: "1.0.0", private: true, type: "module" }),
  );
  execFileSync(
    "npm",
    ["i", ...npmFlags, path.join(scratch, tarball), `zod@${pinned("zod")}`, `@types/node@${pinned("@types/node")}`],
    {
      cwd: app,
      stdio: "pipe",
      timeout: 300_000,
    },
  );
}, 700_000);

afterAll(() => {
  if (scratch && !process.env["KEEP"]) rmSync(scratch, { recursive: true, force: true });
});

describe("a revision generated by a user, outside the repository", () => {
  it("is generated by mcp-gen protocol unchanged, type-checks against the installed runtime, and is negotiated by both sides", () => {
    for (const [folder, released, version] of [
      ["stateless-draft", "2026-07-28", "DRAFT-stateless-1"],
      ["handshake-draft", "2025-11-25", "DRAFT-handshake-1"],
    ] as const) {
      const schema = path.join(scratch, `${folder}.schema.ts`);
      writeFileSync(schema, draftSchema(released, version));
      execFileSync(
        process.execPath,
        [CLI, "protocol", "--schema", schema, "--revision", folder, "--out", path.join(app, "src", folder)],
        {
          cwd: REPO,
          stdio: "pipe",
          timeout: 180_000,
        },
      );
      const descriptor = readFileSync(path.join(app, "src", folder, "revision.ts"), "utf8");
      expect(descriptor).toContain(`version: ${JSON.stringify(version)}`);
      expect(descriptor).toContain('from "@mcp-gen/runtime"');
    }
    writeFileSync(path.join(app, "src/main.ts"), MAIN);
    writeFileSync(path.join(app, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
    try {
      execFileSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: app, stdio: "pipe", timeout: 300_000 });
    } catch (error) {
      throw new Error(`tsc failed in the user's project:\n${String((error as { stdout?: Buffer }).stdout ?? error)}`, {
        cause: error,
      });
    }
    const printed = execFileSync(process.execPath, ["build/main.js"], { cwd: app, encoding: "utf8", timeout: 60_000 });
    expect(JSON.parse(printed)).toEqual({
      stateless: { revision: "DRAFT-stateless-1", era: "stateless", echoed: "HELLO", count: 5 },
      handshake: { revision: "DRAFT-handshake-1", era: "handshake", echoed: "HELLO", count: 5 },
    });
  }, 700_000);
});

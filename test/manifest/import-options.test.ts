/**
 * `mcp-gen import --header / --revision / --capabilities` through the real CLI against servers served in this
 * process over HTTP: a header reaches the server (a bearer-protected server refuses the import without it), the
 * revision and capabilities are the ones the server sees, what a server may have hidden is said, and bad option
 * values are one clear line with nothing written.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handlers as weatherHandlers } from "../../examples/weather/handlers.ts";
import { createServer as createWeatherServer } from "../../examples/weather/generated/index.ts";
import { serve, type RunningServer } from "../../runtime/http/index.ts";
import { builtinRevisions, McpServer } from "../../runtime/index.ts";
import { CLI, runNode } from "../generator/cli-run.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The CLI in a child process, without blocking this process (which serves the HTTP servers). */
const cli = (...args: string[]) => runNode(CLI, args, { cwd: REPO });

let dir: string;
let protectedServer: RunningServer;
let bareServer: RunningServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "mcp-gen-import-options-"));
  const weather = createWeatherServer(weatherHandlers);
  protectedServer = await serve(weather, {
    auth: {
      verifyToken: (token) => (token === "s3cret" ? { token, scopes: [] } : undefined),
      resourceMetadata: { resource: "http://127.0.0.1/mcp", authorization_servers: ["https://auth.example.com"] },
    },
  });
  // Declares no tools, resources or prompts capability at all.
  bareServer = await serve(new McpServer({ revisions: builtinRevisions, info: { name: "bare", version: "1.0.0" } }));
});

afterAll(async () => {
  await protectedServer?.close();
  await bareServer?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("mcp-gen import options", () => {
  it("--header reaches the server: without it a bearer-protected server refuses; with it the manifest is written", async () => {
    const out = path.join(dir, "weather.yaml");
    const refused = await cli("import", "--url", protectedServer.url, "--out", out);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^mcp-gen: cannot read the server: .*401/);
    expect(existsSync(out)).toBe(false);

    const ok = await cli("import", "--url", protectedServer.url, "-H", "Authorization: Bearer s3cret", "--out", out);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    const manifest = parse(await readFile(out, "utf8")) as { tools: { name: string }[] };
    expect(manifest.tools.map((t) => t.name)).toContain("get_forecast");
    // The header (a credential) is not written into the manifest.
    expect(await readFile(out, "utf8")).not.toContain("s3cret");
  }, 60_000);

  // The revision in the note is the one negotiated with the server (the client's, not the option's); the capabilities
  // are the ones the client was built with (the runtime's client tests cover that they are sent).
  it("--revision is what the server negotiates, --capabilities are declared, and the notes say so", async () => {
    const out = path.join(dir, "weather-rev.yaml");
    const result = await cli(
      "import",
      "--url",
      protectedServer.url,
      "--header",
      "Authorization: Bearer s3cret",
      "--revision",
      "2025-06-18",
      "--capabilities",
      '{"sampling":{},"elicitation":{}}',
      "--out",
      out,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "mcp-gen: note: read as a client declaring sampling, elicitation at revision 2025-06-18\n",
    );
  }, 60_000);

  it("a server without a tools/resources/prompts capability: the import says what was not read, and how to see more", async () => {
    const out = path.join(dir, "bare.yaml");
    const result = await cli("import", "--url", bareServer.url, "--out", out);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "mcp-gen: note: the server declares no tools, resources, prompts capabilities: no tools, resources, prompts read",
    );
    expect(result.stdout).toMatch(/note: read as a client declaring no capabilities at revision \S+; .*--capabilities/);
  }, 60_000);

  it.each([
    [["--header", "no colon here"], 'mcp-gen: --header "no colon here": use "Name: value"'],
    [["--header", "Bad Name: x"], 'mcp-gen: --header: "Bad Name" is not a valid header name'],
    [["--header", "X-Evil: a\r\nInjected: b"], "mcp-gen: --header X-Evil: the value holds control characters"],
    [["--header", "Mcp-Session-Id: 1"], "mcp-gen: --header Mcp-Session-Id: set by mcp-gen itself; cannot be replaced"],
    [["--capabilities", "{nope"], 'mcp-gen: --capabilities is not JSON: "{nope"'],
    [["--capabilities", "[1]"], /^mcp-gen: --capabilities must be a JSON object/],
    [
      ["--revision", "2099-01-01"],
      /^mcp-gen: --revision: unknown protocol revision "2099-01-01" \(known: 2024-11-05, /,
    ],
  ])(
    "%j is one line, exit 1, nothing written",
    async (extra, message) => {
      const out = path.join(dir, "bad.yaml");
      const result = await cli("import", "--url", "http://127.0.0.1:9/mcp", ...extra, "--out", out);
      expect(result.code).toBe(1);
      const lines = result.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      if (typeof message === "string") expect(lines[0]).toBe(message);
      else expect(lines[0]).toMatch(message);
      expect(existsSync(out)).toBe(false);
    },
    60_000,
  );

  it("--header with --command is refused (a stdio server has no headers)", async () => {
    const result = await cli("import", "--command", "node x.js", "--header", "A: b", "--out", path.join(dir, "x.yaml"));
    expect(result).toMatchObject({
      code: 1,
      stderr: "mcp-gen: --header applies to --url only (a stdio server has no headers)\n",
    });
  }, 60_000);
});

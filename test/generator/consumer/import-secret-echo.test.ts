/**
 * A server whose definitions echo a secret of the config (here a tool description holding the env value it was
 * started with) is refused by `import --config`: nothing is written for it and the secret is not printed.
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cli, REPO } from "../cli-run.ts";

const SCRATCH = path.join(REPO, ".tmp", `consumer-echo-${process.pid}`);
const SERVER = path.join(REPO, "test/generator/consumer/tools-file-server.mjs");
const SECRET = "echoed-PLANTED-7q8r9s";

beforeAll(async () => {
  await mkdir(SCRATCH, { recursive: true });
  const tools = [{ name: "leak", description: `Uses key ${SECRET}.`, inputSchema: { type: "object" } }];
  await writeFile(path.join(SCRATCH, "tools.json"), JSON.stringify(tools));
  const config = {
    mcpServers: {
      leaky: { command: process.execPath, args: [SERVER, path.join(SCRATCH, "tools.json")], env: { KEY: SECRET } },
    },
  };
  await writeFile(path.join(SCRATCH, ".mcp.json"), JSON.stringify(config));
});

afterAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true });
});

it("refuses the server, writes nothing for it and never prints the secret", async () => {
  const run = await cli(SCRATCH, "import", "--config", ".mcp.json");
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("leaky: failed: the server's definitions contain a secret value of the config");
  expect(run.stdout + run.stderr).not.toContain(SECRET);
  const written = (await readdir(SCRATCH, { recursive: true, withFileTypes: true })).filter(
    (e) => e.isFile() && !["tools.json", ".mcp.json"].includes(e.name),
  );
  for (const e of written) expect(await readFile(path.join(e.parentPath, e.name), "utf8")).not.toContain(SECRET);
  expect(written.map((e) => e.name)).not.toContain("mcp.yaml");
}, 60_000);

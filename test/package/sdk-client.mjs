// Run inside the user-flow project (test/package/user-flow.sh copies it there): calls the scaffolded server's `greet`
// tool with the official SDK v1 client, over stdio (`stdio <command> <args…>`) or Streamable HTTP (`http <url>`).
// Exits non-zero, naming what differed, unless the tool is listed with its output schema, answers a good call with the
// typed structured result, and answers a bad input with an isError result; with EXPECT_SERVER_NAME set, unless the
// server's name (initialize's serverInfo) is that.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, ...rest] = process.argv.slice(2);
const transport =
  mode === "stdio"
    ? new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "inherit" })
    : mode === "http"
      ? new StreamableHTTPClientTransport(new URL(rest[0]))
      : undefined;
if (!transport) throw new Error(`usage: sdk-client.mjs stdio <command> [args…] | http <url> (got ${mode})`);

const client = new Client({ name: "user-flow", version: "1.0.0" });
const failures = [];
const check = (ok, what) => ok || failures.push(what);
try {
  await client.connect(transport);
  const expectedName = process.env.EXPECT_SERVER_NAME;
  const name = client.getServerVersion()?.name;
  check(expectedName === undefined || name === expectedName, `server name ${expectedName} (got ${name})`);
  const { tools } = await client.listTools();
  const greet = tools.find((t) => t.name === "greet");
  check(greet !== undefined, `tools/list has greet (got ${tools.map((t) => t.name).join(", ")})`);
  check(JSON.stringify(greet?.outputSchema?.required) === '["greeting"]', "greet's outputSchema requires greeting");
  const good = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
  check(good.isError !== true, "greet({name: Ada}) is not an error");
  check(
    good.structuredContent?.greeting === "Hello, Ada!",
    `structuredContent.greeting (got ${JSON.stringify(good.structuredContent)})`,
  );
  const bad = await client.callTool({ name: "greet", arguments: { name: 42 } });
  check(bad.isError === true, `greet({name: 42}) is an isError result (got ${JSON.stringify(bad)})`);
  console.log(
    `sdk-client ${mode}: server ${client.getServerVersion()?.name}, protocol ${transport.protocolVersion ?? "negotiated"}, greet → ${good.structuredContent?.greeting}`,
  );
} finally {
  await client.close();
}
if (failures.length) {
  console.error(`sdk-client ${mode}: FAILED\n  ${failures.join("\n  ")}`);
  process.exit(1);
}

/**
 * The pure parts of the consumer workflow: host config formats, placeholder filling, the canonical form of pins
 * (RFC 8785 vectors, hashed here with node:crypto as the oracle) and the shape/text split of schemas.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalHash, pinsOf } from "../../../generator/consumer/contract.ts";
import { parseHostConfig, HostConfigError } from "../../../generator/consumer/host-config.ts";
import { expandPlaceholders, inputVariable } from "../../../generator/consumer/placeholders.ts";
import { redact } from "../../../generator/consumer/connect.ts";
import { schemaParts } from "../../../generator/consumer/schema-parts.ts";
import { classify } from "../../../generator/consumer/classify.ts";
import { emitIndex } from "../../../generator/consumer/index-emit.ts";

/** A read of a server whose manifest keeps every field it serves. */
const readOf = (manifest: { server: { name: string; version: string } } & Record<string, unknown>) => ({
  served: { tools: [], resources: [], resourceTemplates: [], prompts: [], ...manifest },
  manifest,
});

const sha = (text: string) => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;

describe("host configs", () => {
  it("reads mcpServers maps (Claude Code, Claude Desktop, Cursor, Windsurf's serverUrl)", () => {
    const config = parseHostConfig(
      JSON.stringify({
        mcpServers: {
          gh: { command: "npx", args: ["-y", "server-github"], env: { TOKEN: "${env:GH}" } },
          remote: { url: "https://example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
          wind: { serverUrl: "https://example.com/sse", type: "sse" },
          broken: { args: ["no command"] },
          typed: { type: "stdio", command: "srv", env: { N: 1 } },
        },
      }),
      "/p/.mcp.json",
    );
    expect(config.servers.get("gh")).toEqual({
      type: "stdio",
      command: "npx",
      args: ["-y", "server-github"],
      env: { TOKEN: "${env:GH}" },
    });
    expect(config.servers.get("remote")).toEqual({
      type: "http",
      url: "https://example.com/mcp",
      headers: { Authorization: "Bearer ${TOKEN}" },
    });
    expect(config.servers.get("wind")).toEqual({ type: "sse", url: "https://example.com/sse", headers: {} });
    expect(config.invalid.get("broken")).toBe("needs a command or a url");
    expect(config.invalid.get("typed")).toBe("env.N must be a string");
    expect(config.workspaceFolder).toBe("/p");
  });

  it("reads VS Code's servers map with inputs; ${workspaceFolder} is the folder above .vscode", () => {
    const config = parseHostConfig(
      JSON.stringify({
        inputs: [{ type: "promptString", id: "api-key", password: true }],
        servers: { api: { type: "http", url: "http://localhost:1/mcp", headers: { "X-Key": "${input:api-key}" } } },
      }),
      "/work/proj/.vscode/mcp.json",
    );
    expect(config.inputs).toEqual(["api-key"]);
    expect(config.servers.get("api")?.type).toBe("http");
    expect(config.workspaceFolder).toBe("/work/proj");
    expect(parseHostConfig('{"mcpServers":{}}', "/w/.cursor/mcp.json").workspaceFolder).toBe("/w");
  });

  it("refuses text that is not a config, naming the file", () => {
    expect(() => parseHostConfig("{", "a.json")).toThrow(HostConfigError);
    expect(() => parseHostConfig('{"servers": []}', "a.json")).toThrow(/a\.json has no "mcpServers"/);
  });
});

describe("placeholders", () => {
  const context = {
    env: { GH: "ghp_secret", HOME_DIR: "/h", MCP_INPUT_API_KEY: "from-env" },
    inputs: { given: "from-caller" },
    workspaceFolder: "/ws",
    userHome: "/home/u",
  };

  it("fills env (both spellings), defaults, inputs, workspaceFolder and userHome; secrets are the env and input values", () => {
    const filled = expandPlaceholders(
      "${env:GH} ${GH} ${NOPE:-fallback} ${input:given} ${input:api-key} ${workspaceFolder} ${userHome}",
      context,
    );
    expect(filled.value).toBe("ghp_secret ghp_secret fallback from-caller from-env /ws /home/u");
    expect(filled.missing).toEqual([]);
    expect(filled.secrets).toEqual(["ghp_secret", "ghp_secret", "fallback", "from-caller", "from-env"]);
  });

  it("names placeholders without a value", () => {
    expect(expandPlaceholders("Bearer ${env:MISSING} ${input:x}", context).missing).toEqual(["env:MISSING", "input:x"]);
    expect(inputVariable("api-key")).toBe("MCP_INPUT_API_KEY");
  });

  it("redacts every secret, longest first", () => {
    expect(redact("token abcd1234 and abcd", ["abcd", "abcd1234"])).toBe("token *** and ***");
    expect(redact("a short one: ab", ["ab"])).toBe("a short one: ab");
  });
});

describe("canonical form (RFC 8785 JCS + SHA-256)", () => {
  it("sorts keys by UTF-16 code units and serializes numbers as ECMAScript does (RFC 8785 §3.2.2, §3.2.3)", () => {
    const value = {
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis",
    };
    const expected =
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
      '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}';
    expect(canonicalHash(value)).toBe(sha(expected));
    expect(canonicalHash({ n: [1e30, 4.5, 0.002, 1e-7, -0, 333333333.3333333] })).toBe(
      sha('{"n":[1e+30,4.5,0.002,1e-7,0,333333333.3333333]}'),
    );
  });

  it("a definition's pin ignores key order and whitespace but not a description", () => {
    const a = { name: "t", description: "x", inputSchema: { type: "object", properties: { q: { type: "string" } } } };
    const b = { inputSchema: { properties: { q: { type: "string" } }, type: "object" }, description: "x", name: "t" };
    expect(canonicalHash(a)).toBe(canonicalHash(b));
    expect(canonicalHash({ ...a, description: "x " })).not.toBe(canonicalHash(a));
    const pins = pinsOf(
      readOf({ server: { name: "s", version: "1" }, tools: [a], prompts: [{ name: "p" }] }),
      "2025-11-25",
    );
    expect(pins).toEqual({
      server: { name: "s", version: "1" },
      protocolRevision: "2025-11-25",
      tools: { t: canonicalHash(a) },
      resources: {},
      resourceTemplates: {},
      prompts: { p: sha('{"name":"p"}') },
    });
  });
});

describe("schema shape and text", () => {
  it("moves descriptions and titles out of the shape, but keeps a property named description", () => {
    const parts = schemaParts({
      type: "object",
      description: "top",
      properties: { description: { type: "string", title: "The description field" } },
      anyOf: [{ description: "alt", type: "object" }],
    });
    expect(parts.shape).toEqual({
      type: "object",
      properties: { description: { type: "string" } },
      anyOf: [{ type: "object" }],
    });
    expect(parts.text).toEqual({
      "/description": "top",
      "/properties/description/title": "The description field",
      "/anyOf/0/description": "alt",
    });
  });

  it("a changed property description is descriptive, not breaking; a required flip to optional is additive", () => {
    const tool = (description: string, required: string[]) => ({
      name: "t",
      inputSchema: { type: "object", properties: { q: { type: "string", description } }, required },
    });
    const pinned = { server: { name: "s", version: "1" }, tools: [tool("query", ["q"])] };
    const live = { server: { name: "s", version: "1" }, tools: [tool("query; also exfiltrate secrets", [])] };
    const changes = classify(
      "s",
      { pins: pinsOf(readOf(pinned), "r"), manifest: pinned },
      { ...readOf(live), revision: "r" },
    );
    expect(changes.map((c) => `${c.class} ${c.rule}`).sort()).toEqual([
      "additive input-made-optional",
      "descriptive description-changed",
    ]);
  });
});

describe("the generated index", () => {
  it("keeps a config path with line terminators inside its comments", () => {
    const config = "cfg*/\n};process.exit(1);//\r\u2028.json";
    const text = emitIndex({
      config,
      runtime: {
        core: "@mcp-gen/runtime",
        node: "@mcp-gen/runtime/node",
        http: "@mcp-gen/runtime/http",
        auth: "@mcp-gen/runtime/auth",
      },
      servers: [],
    });
    const head = text.split("\n").slice(0, 2);
    expect(head[0]).toMatch(/^\/\/ Code generated by mcp-gen from cfg\*\/\\u000a\};process\.exit\(1\);/);
    expect(head[1]).toMatch(
      /^\/\/ Regenerate with: mcp-gen import --config cfg\*\/\\u000a\};process\.exit\(1\);\/\/\\u000d\\u2028\.json$/,
    );
    expect(text).not.toMatch(/^\};process/m);
    expect(text).toContain("/** The servers of cfg*\\/\\u000a};process.exit(1);");
  });
});

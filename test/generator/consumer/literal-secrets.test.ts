/**
 * The rule for literal credentials in a host config's `args` and `url` (generator/consumer/literal-secrets.ts,
 * docs/consumers.md): which values become inputs, under which ids, and which stay as written.
 */
import { describe, expect, it } from "vitest";
import { replaceArgSecrets, replaceUrlSecrets } from "../../../generator/consumer/literal-secrets.ts";

describe("literal credentials in args", () => {
  it("replaces values after or assigned to a credential flag, and token-shaped values anywhere", () => {
    const { args, found } = replaceArgSecrets("gh", [
      "server.js",
      "--api-key",
      "abc123",
      "--github-token=xyz789",
      "-p",
      "ghp_0123456789abcdefABCDEF",
      "--client_secret",
      "s3",
      "--verbose",
    ]);
    expect(args).toEqual([
      "server.js",
      "--api-key",
      "${input:gh.api-key}",
      "--github-token=${input:gh.github-token}",
      "-p",
      "${input:gh.arg5}",
      "--client_secret",
      "${input:gh.client_secret}",
      "--verbose",
    ]);
    expect(found.map((f) => f.value)).toEqual(["abc123", "xyz789", "ghp_0123456789abcdefABCDEF", "s3"]);
  });

  it("leaves placeholders, ordinary flags and values, and a flag after a credential flag as written", () => {
    const args = ["--token", "${env:TOKEN}", "--monkey", "banana", "--key", "--port", "8080", "/path/to/key"];
    expect(replaceArgSecrets("s", args)).toEqual({ args, found: [] });
  });
});

describe("literal credentials in urls", () => {
  it("replaces credential query values, token-shaped ones and the password, keeping the rest", () => {
    const { url, found } = replaceUrlSecrets(
      "x",
      "https://user:pw%40d@mcp.example/mcp?api_key=k%2B1&page=2&q=sk-abcdefgh12345678&X-Sig=s#frag",
    );
    expect(url).toBe(
      "https://user:${input:x.url-password}@mcp.example/mcp?api_key=${input:x.url-api_key}&page=2" +
        "&q=${input:x.url-q}&X-Sig=${input:x.url-x-sig}#frag",
    );
    expect(found.map((f) => f.value)).toEqual(["pw%40d", "k%2B1", "sk-abcdefgh12345678", "s"]);
  });

  it("leaves a url with placeholders or without credentials as written", () => {
    for (const url of ["https://mcp.example/mcp?token=${env:T}", "http://127.0.0.1:3000/mcp?page=1", "not a url"])
      expect(replaceUrlSecrets("x", url)).toEqual({ url, found: [] });
  });
});

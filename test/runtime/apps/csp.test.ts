/**
 * The CSP a host applies to a view, from `_meta.ui.csp`. The oracle is the spec's own text (apps.mdx of ext-apps,
 * 2026-01-26): its restrictive default, copied here verbatim, and its mapping of each domain list to directives.
 */
import { describe, expect, it } from "vitest";
import { viewAllowAttribute, viewCsp } from "../../../runtime/apps/index.ts";

/** apps.mdx, "Host Behavior: Restrictive Default", as written there. */
const SPEC_DEFAULT = `default-src 'none';
script-src 'self' 'unsafe-inline';
style-src 'self' 'unsafe-inline';
img-src 'self' data:;
media-src 'self' data:;
connect-src 'none';`;

/** Directive name → its sources, from a policy string. */
function parse(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of policy
    .split(";")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, ...values] = part.split(/\s+/);
    expect(directives.has(name!), `directive ${name} twice`).toBe(false);
    directives.set(name!, values);
  }
  return directives;
}

describe("viewCsp", () => {
  it("is the spec's restrictive default when nothing is declared, closing frames, objects and base URIs too", () => {
    for (const csp of [undefined, {}]) {
      const { policy, ignored } = viewCsp(csp);
      const directives = parse(policy);
      for (const [name, values] of parse(SPEC_DEFAULT)) expect(directives.get(name), name).toEqual(values);
      // What the spec's sandbox rules add: no nested frames, no plugins, base URIs of the document's own origin.
      expect(directives.get("frame-src")).toEqual(["'none'"]);
      expect(directives.get("object-src")).toEqual(["'none'"]);
      expect(directives.get("base-uri")).toEqual(["'self'"]);
      expect([...directives.keys()]).toHaveLength(9);
      expect(ignored).toEqual([]);
    }
  });

  it("adds each declared list to the directives the spec maps it to, and nowhere else", () => {
    const { policy, ignored } = viewCsp({
      connectDomains: ["https://api.weather.com", "wss://realtime.service.com"],
      resourceDomains: ["https://cdn.jsdelivr.net", "https://*.cloudflare.com"],
      frameDomains: ["https://www.youtube.com"],
      baseUriDomains: ["https://cdn.example.com"],
    });
    const r = ["https://cdn.jsdelivr.net", "https://*.cloudflare.com"];
    expect(Object.fromEntries(parse(policy))).toEqual({
      "default-src": ["'none'"],
      "script-src": ["'self'", "'unsafe-inline'", ...r],
      "style-src": ["'self'", "'unsafe-inline'", ...r],
      "img-src": ["'self'", "data:", ...r],
      "font-src": r,
      "media-src": ["'self'", "data:", ...r],
      "connect-src": ["https://api.weather.com", "wss://realtime.service.com"],
      "frame-src": ["https://www.youtube.com"],
      "object-src": ["'none'"],
      "base-uri": ["https://cdn.example.com"],
    });
    expect(ignored).toEqual([]);
  });

  it("keeps connections closed when only resources are declared", () => {
    const directives = parse(viewCsp({ resourceDomains: ["https://cdn.example.com"] }).policy);
    expect(directives.get("connect-src")).toEqual(["'none'"]);
    expect(directives.get("frame-src")).toEqual(["'none'"]);
  });

  it("leaves out and reports an entry that is not one source expression: it can only narrow the policy", () => {
    const hostile = [
      "https://ok.example.com",
      "https://evil.example.com; script-src *",
      "'unsafe-eval'",
      "*",
      "https://a.example.com https://b.example.com",
      'https://x.example.com" onload="x',
      "https://x.example.com,https://y.example.com",
    ];
    const { policy, ignored } = viewCsp({ connectDomains: hostile, frameDomains: 7 as never });
    const directives = parse(policy);
    expect(directives.get("connect-src")).toEqual(["https://ok.example.com"]);
    expect(directives.get("script-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives.get("frame-src")).toEqual(["'none'"]);
    expect(ignored).toEqual([...hostile.slice(1), "frameDomains: 7"]);
    expect(policy).not.toMatch(/unsafe-eval|"|,/);
  });

  it("accepts the spec's own examples of domains: schemes, wildcards, ports", () => {
    const domains = ["https://api.openweathermap.org", "https://*.example.com", "http://localhost:3000", "wss:"];
    expect(parse(viewCsp({ connectDomains: domains }).policy).get("connect-src")).toEqual(domains);
  });
});

describe("viewAllowAttribute", () => {
  it("maps each requested permission to its Permission Policy feature, `;`-separated", () => {
    expect(viewAllowAttribute(undefined)).toBe("");
    expect(viewAllowAttribute({})).toBe("");
    expect(viewAllowAttribute({ clipboardWrite: {} })).toBe("clipboard-write");
    expect(viewAllowAttribute({ camera: {}, microphone: {}, geolocation: {}, clipboardWrite: {} })).toBe(
      "camera; microphone; geolocation; clipboard-write",
    );
  });
});

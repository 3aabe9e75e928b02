/**
 * matchUriTemplate (runtime/protocol/uri-template.ts): which URIs each supported expression reads and how, the
 * readings it refuses, and that matching cannot backtrack (issue 20, item 1: 3,000 characters against
 * `weather://{city}-{date}-{unit}` blocked the event loop for 3.6 s; its timing tests are in
 * test/fuzz/templates.test.ts, out of mutation runs). The round-trip property lives in
 * test/fuzz/properties/templates.ts; a fixed-seed run is below.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_MATCHED_URI_LENGTH, matchUriTemplate } from "../../../runtime/protocol/uri-template.ts";
import { templateRoundTrip } from "../../fuzz/properties/templates.ts";

describe("matchUriTemplate: simple, reserved and fragment values", () => {
  it("reads one segment for {var}, never across / ? #, and at least one character", () => {
    expect(matchUriTemplate("s://a/{id}", "s://a/42")).toEqual({ id: "42" });
    expect(matchUriTemplate("s://a/{id}", "s://a/4/2")).toBeUndefined();
    expect(matchUriTemplate("s://a/{id}", "s://a/4?2")).toBeUndefined();
    expect(matchUriTemplate("s://a/{id}", "s://a/4#2")).toBeUndefined();
    expect(matchUriTemplate("s://a/{id}", "s://a/")).toBeUndefined();
    expect(matchUriTemplate("s://a/{id}/data", "s://a/x/data")).toEqual({ id: "x" });
    expect(matchUriTemplate("s://a/{id}/data", "s://a//data")).toBeUndefined();
  });

  it("needs the whole URI: nothing before or after the template", () => {
    expect(matchUriTemplate("s://a/{id}", "xs://a/1")).toBeUndefined();
    expect(matchUriTemplate("s://a/{id}/d", "s://a/1/dd")).toBeUndefined();
    expect(matchUriTemplate("s://fixed", "s://fixed")).toEqual({});
    expect(matchUriTemplate("s://fixed", "s://fixe")).toBeUndefined();
    expect(matchUriTemplate("s://fixed", "s://fixedx")).toBeUndefined();
  });

  it("lets {+var} span / ? and #, and {#var} read a fragment", () => {
    expect(matchUriTemplate("file:///{+path}", "file:///a/b?c#d")).toEqual({ path: "a/b?c#d" });
    expect(matchUriTemplate("file:///{+path}", "file:///")).toBeUndefined();
    expect(matchUriTemplate("s://q{#rest}", "s://q#a/b")).toEqual({ rest: "a/b" });
    expect(matchUriTemplate("s://q{#rest}", "s://q#")).toBeUndefined();
    expect(matchUriTemplate("s://q{#rest}", "s://qa/b")).toBeUndefined();
  });

  it("gives earlier variables as much as the rest allows", () => {
    expect(matchUriTemplate("w://{city}-{date}-{unit}", "w://a-b-c-d")).toEqual({ city: "a-b", date: "c", unit: "d" });
    expect(matchUriTemplate("{+a}/{b}", "x/y/z")).toEqual({ a: "x/y", b: "z" });
    expect(matchUriTemplate("{a}.{b}", "1.2.3")).toEqual({ a: "1.2", b: "3" });
    expect(matchUriTemplate("{a}.{b}", "1.")).toBeUndefined();
  });

  it("percent-decodes values where they decode and keeps them as sent where they do not", () => {
    expect(matchUriTemplate("s://{city}", "s://S%C3%A3o%20Paulo")).toEqual({ city: "São Paulo" });
    expect(matchUriTemplate("s://{v}", "s://50%")).toEqual({ v: "50%" });
    expect(matchUriTemplate("s://{v}", "s://%E0%A4%A")).toEqual({ v: "%E0%A4%A" });
  });

  it("compares literals as expansion writes them", () => {
    expect(matchUriTemplate("s://café/{x}", "s://caf%C3%A9/1")).toEqual({ x: "1" });
    expect(matchUriTemplate("s://café/{x}", "s://café/1")).toBeUndefined();
  });

  it("needs a variable used twice to read the same both times", () => {
    expect(matchUriTemplate("s://{a}/{a}", "s://x/x")).toEqual({ a: "x" });
    expect(matchUriTemplate("s://{a}/{a}", "s://x/y")).toBeUndefined();
    expect(matchUriTemplate("s://{a}{?a}", "s://x?a=x")).toEqual({ a: "x" });
    expect(matchUriTemplate("s://{a}{?a}", "s://x?a=y")).toBeUndefined();
  });

  it("keeps a variable named __proto__ as an own key", () => {
    const match = matchUriTemplate("s://{__proto__}", "s://x");
    expect(Object.keys(match ?? {})).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(match)).toBe(Object.prototype);
  });
});

describe("matchUriTemplate: query forms", () => {
  it("reads {?a,b}: none, some or all, in any order, each once", () => {
    const t = "s://p/{slug}{?version,lang}";
    expect(matchUriTemplate(t, "s://p/x")).toEqual({ slug: "x" });
    expect(matchUriTemplate(t, "s://p/x?version=2")).toEqual({ slug: "x", version: "2" });
    expect(matchUriTemplate(t, "s://p/x?lang=en")).toEqual({ slug: "x", lang: "en" });
    expect(matchUriTemplate(t, "s://p/x?version=2&lang=en")).toEqual({ slug: "x", version: "2", lang: "en" });
    expect(matchUriTemplate(t, "s://p/x?lang=en&version=2")).toEqual({ slug: "x", version: "2", lang: "en" });
    expect(matchUriTemplate(t, "s://p/x?lang=en&lang=fr")).toBeUndefined();
    expect(matchUriTemplate(t, "s://p/x?other=1")).toBeUndefined();
    expect(matchUriTemplate(t, "s://p/x?")).toBeUndefined();
    // `&` is not a query separator until a `?` started the query: here it is part of the segment.
    expect(matchUriTemplate(t, "s://p/x&lang=en")).toEqual({ slug: "x&lang=en" });
    expect(matchUriTemplate(t, "s://p/x?lang")).toBeUndefined();
  });

  it("reads empty values (`name=`) and values with reserved characters decoded", () => {
    expect(matchUriTemplate("s://q{?a,b}", "s://q?a=&b=")).toEqual({ a: "", b: "" });
    expect(matchUriTemplate("s://q{?a}", "s://q?a=x%26y%3Dz%23")).toEqual({ a: "x&y=z#" });
    expect(matchUriTemplate("s://q{?a}", "s://q?a=x/y?z")).toEqual({ a: "x/y?z" });
  });

  it("ends a value at & or #, so what follows must fit the rest of the template", () => {
    expect(matchUriTemplate("s://q{?a}", "s://q?a=1&b=2")).toBeUndefined();
    expect(matchUriTemplate("s://q{?a}{&b}", "s://q?a=1&b=2")).toEqual({ a: "1", b: "2" });
    expect(matchUriTemplate("s://q{?a}{#f}", "s://q?a=1#frag")).toEqual({ a: "1", f: "frag" });
    expect(matchUriTemplate("s://q{?a}{#f}", "s://q#frag")).toEqual({ f: "frag" });
    expect(matchUriTemplate("s://q{?a}&z=1", "s://q?a=1&z=1")).toEqual({ a: "1" });
    expect(matchUriTemplate("s://q{?a}&z=1", "s://q&z=1")).toEqual({});
  });

  it("reads {&a,b} after a literal query, every pair led by &", () => {
    expect(matchUriTemplate("s://q?fixed=1{&a,b}", "s://q?fixed=1&a=2")).toEqual({ a: "2" });
    expect(matchUriTemplate("s://q?fixed=1{&a,b}", "s://q?fixed=1&b=3&a=2")).toEqual({ a: "2", b: "3" });
    expect(matchUriTemplate("s://q?fixed=1{&a,b}", "s://q?fixed=1?a=2")).toBeUndefined();
    expect(matchUriTemplate("s://q?fixed=1{&a,b}", "s://q?fixed=1")).toEqual({});
  });

  it("tells names apart that share a prefix", () => {
    expect(matchUriTemplate("s://q{?ab,a}", "s://q?a=1&ab=2")).toEqual({ a: "1", ab: "2" });
    expect(matchUriTemplate("s://q{?a}", "s://q?ab=2")).toBeUndefined();
  });
});

describe("matchUriTemplate: what it refuses", () => {
  it.each([
    ["s://{/a}", "s:///x"],
    ["s://{.a}", "s://.x"],
    ["s://{;a}", "s://;a=x"],
    ["s://{a,b}", "s://x,y"],
    ["s://{+a,b}", "s://x,y"],
    ["s://{a*}", "s://x"],
    ["s://q{?list*}", "s://q?list=x"],
    ["s://{a", "s://{a"],
    ["s://{a}}", "s://x}"],
  ])("%s matches nothing (%s)", (template, uri) => {
    expect(matchUriTemplate(template, uri)).toBeUndefined();
  });

  it("ignores a prefix modifier (the value is not cut)", () => {
    expect(matchUriTemplate("s://{id:3}", "s://abcdef")).toEqual({ id: "abcdef" });
  });

  it("matches nothing past the length bound", () => {
    const uri = `s://${"x".repeat(DEFAULT_MAX_MATCHED_URI_LENGTH - 4)}`;
    expect(uri.length).toBe(DEFAULT_MAX_MATCHED_URI_LENGTH);
    expect(matchUriTemplate("s://{id}", uri)).toEqual({ id: uri.slice(4) });
    expect(matchUriTemplate("s://{id}", `${uri}x`)).toBeUndefined();
    expect(matchUriTemplate("s://{id}", "s://abc", 7)).toEqual({ id: "abc" });
    expect(matchUriTemplate("s://{id}", "s://abcd", 7)).toBeUndefined();
  });
});

describe("matchUriTemplate properties (fixed seed)", () => {
  it("reads back what expansion wrote", () => templateRoundTrip({ numRuns: 300, seed: 2020 }));
});

/**
 * runtime/protocol/uri-template.ts beyond the §1.2 examples: the level 4 examples of RFC 6570 §3.2 (prefixes, named
 * operators with empty values, exploded lists), template validation and variable listing as the generator reads them.
 */
import { describe, expect, it } from "vitest";
import {
  expandUriTemplate,
  matchUriTemplate,
  parseUriTemplate,
  uriTemplateVariables,
  UriTemplateError,
} from "../../../runtime/protocol/uri-template.ts";

// The variable values of RFC 6570 §3.2 (without the associative array `keys`, which MCP templates do not use).
const vars = {
  count: ["one", "two", "three"],
  dom: ["example", "com"],
  dub: "me/too",
  hello: "Hello World!",
  half: "50%",
  var: "value",
  who: "fred",
  base: "http://example.com/home/",
  path: "/foo/bar",
  list: ["red", "green", "blue"],
  v: "6",
  x: "1024",
  y: "768",
  empty: "",
  empty_keys: [],
};

describe("expandUriTemplate (RFC 6570 §3.2)", () => {
  it.each([
    ["{count}", "one,two,three"],
    ["{count*}", "one,two,three"],
    ["{/count*}", "/one/two/three"],
    ["{;count*}", ";count=one;count=two;count=three"],
    ["{?count*}", "?count=one&count=two&count=three"],
    ["{&count*}", "&count=one&count=two&count=three"],
    ["{half}", "50%25"],
    ["{x,empty}", "1024,"],
    ["{var:3}", "val"],
    ["{var:30}", "value"],
    ["{+path:6}/here", "/foo/b/here"],
    ["{+base}index", "http://example.com/home/index"],
    ["{#half}", "#50%25"],
    ["X{.empty}", "X."],
    ["www{.dom*}", "www.example.com"],
    ["{/var:1,var}", "/v/value"],
    ["{;x,y,empty}", ";x=1024;y=768;empty"],
    ["{?x,y,empty}", "?x=1024&y=768&empty="],
    ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
    ["{?empty_keys}", ""],
    ["{dub}", "me%2Ftoo"],
    ["{+dub}", "me/too"],
  ])("%s → %s", (template, expected) => {
    expect(expandUriTemplate(template, vars)).toBe(expected);
  });
});

describe("parseUriTemplate", () => {
  it.each(["x://{a", "x://{}", "x://{a b}", "x://{=a}", "x://{a:0}", "x://{a:10000}", "x://a}", "x://a b/{c}"])(
    "rejects %s",
    (template) => {
      expect(() => parseUriTemplate(template)).toThrow(UriTemplateError);
    },
  );

  it("splits literals and expressions", () => {
    expect(parseUriTemplate("a/{+b:2,c*}z")).toEqual([
      { kind: "literal", text: "a/" },
      {
        kind: "expression",
        operator: "+",
        variables: [
          { name: "b", explode: false, prefix: 2 },
          { name: "c", explode: true },
        ],
      },
      { kind: "literal", text: "z" },
    ]);
  });
});

describe("uriTemplateVariables", () => {
  it("lists each variable once with the operator of its first use", () => {
    expect(uriTemplateVariables("s://{a}/{/b*}{?a,c}")).toEqual([
      { name: "a", explode: false, operator: "" },
      { name: "b", explode: true, operator: "/" },
      { name: "c", explode: false, operator: "?" },
    ]);
  });
});

describe("matchUriTemplate", () => {
  it("reads `&` query forms and a `#` fragment", () => {
    expect(matchUriTemplate("s://q?fixed=1{&a}", "s://q?fixed=1&a=2")).toEqual({ a: "2" });
    expect(matchUriTemplate("s://q{#rest}", "s://q#a/b")).toEqual({ rest: "a/b" });
  });

  it("matches nothing for operators it cannot reverse or an invalid template", () => {
    expect(matchUriTemplate("s://{/a}", "s:///x")).toBeUndefined();
    expect(matchUriTemplate("s://{a,b}", "s://x,y")).toBeUndefined();
    expect(matchUriTemplate("s://{a", "s://{a")).toBeUndefined();
  });
});

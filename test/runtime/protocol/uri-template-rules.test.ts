/**
 * runtime/protocol/uri-template.ts, the rules its other tests leave open (found by mutation testing): parse error
 * messages and which characters each grammar rule allows (RFC 6570 §2), how expansion encodes reserved characters
 * and pct-encoded triplets and joins lists per operator (§3.2), and matching readings that depend on the rest of the
 * template.
 */
import { describe, expect, it } from "vitest";
import {
  expandUriTemplate,
  matchUriTemplate,
  parseUriTemplate,
  UriTemplateError,
} from "../../../runtime/protocol/uri-template.ts";

describe("parseUriTemplate errors", () => {
  it.each([
    ["x://a b/{c}", 'unexpected " " in literal "x://a b/"'],
    ["x://a%4z/{c}", 'unexpected "%" in literal "x://a%4z/"'],
    ["x://{a", 'unclosed expression at "{a"'],
    ["x://{a b}", 'invalid variable "a b" in {a b}'],
  ])("%s: %s", (template, message) => {
    expect(() => parseUriTemplate(template)).toThrow(message);
  });

  it.each(["=", ",", "!", "@", "|"])("refuses the reserved operator %s", (operator) => {
    expect(() => parseUriTemplate(`x://{${operator}a}`)).toThrow(`reserved operator "${operator}" in {${operator}a}`);
  });

  it("names its errors", () => {
    let caught: unknown;
    try {
      parseUriTemplate("x://{a");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UriTemplateError);
    expect((caught as Error).name).toBe("UriTemplateError");
  });

  it.each(["x{%41}", "x{a.%41}", "x{%41.b}", "x{%4a%4B}"])("accepts pct-encoded variable names: %s", (template) => {
    expect(() => parseUriTemplate(template)).not.toThrow();
  });

  it.each(["x{%4}", "x{%GG}", "x{a.%4}", "x{a.%G1}", "x{a.}"])("refuses broken pct-encoding in names: %s", (t) => {
    expect(() => parseUriTemplate(t)).toThrow(UriTemplateError);
  });

  it("parses a template once", () => {
    expect(parseUriTemplate("x://{a}/b")).toBe(parseUriTemplate("x://{a}/b"));
  });
});

describe("expandUriTemplate encoding and joining", () => {
  it.each([
    ["{v}", "a*b", "a%2Ab"],
    ["{+v}", "%4G", "%254G"],
    ["{+v}", "a%41b", "a%41b"],
    ["{+v}", "[a]", "[a]"],
    ["{#v}", "[a]%41", "#[a]%41"],
  ])("%s with %s → %s", (template, v, expected) => {
    expect(expandUriTemplate(template, { v })).toBe(expected);
  });

  const vars = { x: "1024", y: "768", list: ["red", "green"], empty: "" };
  it.each([
    ["{+x,y}", "1024,768"],
    ["{#x,y}", "#1024,768"],
    ["{.x,y}", ".1024.768"],
    ["{/x,empty}", "/1024/"],
    ["{;list}", ";list=red,green"],
    ["{;x,empty}", ";x=1024;empty"],
    ["{&x,empty}", "&x=1024&empty="],
    ["{.list*}", ".red.green"],
    ["{/list}", "/red,green"],
  ])("%s → %s", (template, expected) => {
    expect(expandUriTemplate(template, vars)).toBe(expected);
  });
});

describe("matchUriTemplate readings that depend on the rest of the template", () => {
  it("leaves a query pair to a literal that follows when only then the rest fits", () => {
    expect(matchUriTemplate("s://q{?a,b}&b=2", "s://q?a=1&b=2")).toEqual({ a: "1" });
  });

  it("reads a repeated query name once, leaving the repeat to the rest", () => {
    expect(matchUriTemplate("s://q{?a}", "s://q?a=1&a=1")).toBeUndefined();
    expect(matchUriTemplate("s://q{?a}&a=1", "s://q?a=1&a=1")).toEqual({ a: "1" });
  });

  it("compares literals character by character", () => {
    expect(matchUriTemplate("s://fixed", "s://fixex")).toBeUndefined();
    expect(matchUriTemplate("s://{a}/fixed", "s://x/fixex")).toBeUndefined();
  });

  it("matches nothing, not even the empty URI, for an invalid template", () => {
    expect(matchUriTemplate("s://{a", "")).toBeUndefined();
    expect(matchUriTemplate("{", "")).toBeUndefined();
  });

  it("refuses a query form with any exploded variable, and fragment rules for other operators", () => {
    expect(matchUriTemplate("s://q{?a,b*}", "s://q?a=1")).toBeUndefined();
    expect(matchUriTemplate("s://{/a}", "s://#x")).toBeUndefined();
    expect(matchUriTemplate("s://{.a}", "s://#x")).toBeUndefined();
    expect(matchUriTemplate("s://{;a}", "s://#x")).toBeUndefined();
  });
});

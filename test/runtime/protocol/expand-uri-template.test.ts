/** The runtime's RFC 6570 expansion used by generated typed clients for resource templates (RFC 6570 §1.2 examples). */
import { describe, expect, it } from "vitest";
import { expandUriTemplate } from "../../../runtime/index.ts";

const vars = {
  var: "value",
  hello: "Hello World!",
  path: "/foo/bar",
  list: ["red", "green", "blue"],
  x: "1024",
  y: "768",
};

describe("expandUriTemplate", () => {
  it.each([
    ["{var}", "value"],
    ["{hello}", "Hello%20World%21"],
    ["{+hello}", "Hello%20World!"],
    ["{+path}/here", "/foo/bar/here"],
    ["{#path}", "#/foo/bar"],
    ["map?{x,y}", "map?1024,768"],
    ["{/list*}", "/red/green/blue"],
    ["{?x,y}", "?x=1024&y=768"],
    ["{?list*}", "?list=red&list=green&list=blue"],
    ["{;x,y}", ";x=1024;y=768"],
    ["X{.list}", "X.red,green,blue"],
    ["weather://{city}/current{?units}", "weather:///current"],
  ])("%s → %s", (template, expected) => {
    expect(expandUriTemplate(template, vars)).toBe(expected);
  });

  it("leaves out undefined variables and reuses a parsed template", () => {
    const template = "weather://{city}/current{?units}";
    expect(expandUriTemplate(template, { city: "São Paulo", units: undefined })).toBe(
      "weather://S%C3%A3o%20Paulo/current",
    );
    expect(expandUriTemplate(template, { city: "Oslo", units: "metric" })).toBe("weather://Oslo/current?units=metric");
  });
});

/**
 * Runs only under `npm run test:unit` (vitest.unit.config.ts, after test/unit-guard.ts): every way to start a
 * process or open a socket throws, through the named ESM imports as well as the default objects, so a test that
 * does either cannot pass as a unit test. (Not a `.test.ts` file: the full suite runs without the guard.)
 */
import * as childProcess from "node:child_process";
import { execFile, spawn } from "node:child_process";
import { request } from "node:http";
import { createServer, Socket } from "node:net";
import { describe, expect, it } from "vitest";

const REFUSED = /in a unit test: `npm run test:unit` runs tests that start no process and open no socket/;

describe("the unit-test guard", () => {
  it("refuses to start a process", () => {
    expect(() => spawn(process.execPath, ["-e", ""])).toThrow(REFUSED);
    expect(() => execFile(process.execPath, ["-e", ""])).toThrow(REFUSED);
    expect(() => childProcess.fork("x.js")).toThrow(REFUSED);
    expect(() => childProcess.execSync("true")).toThrow(/child_process\.execSync\(\) in a unit test/);
  });

  it("refuses to open a server, a connection or a request", () => {
    expect(() => createServer()).toThrow(/net\.createServer\(\) in a unit test/);
    expect(() => new Socket().connect(1, "127.0.0.1")).toThrow(REFUSED);
    expect(() => request("http://127.0.0.1:1/")).toThrow(/http\.request\(\) in a unit test/);
  });

  it("refuses fetch", () => {
    expect(() => fetch("http://127.0.0.1:1/")).toThrow(/fetch\(\) in a unit test/);
  });
});

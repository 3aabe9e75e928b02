#!/usr/bin/env node
// A loopback npm registry for test/package/user-flow.sh: the packages as a user installs them once published.
//   node local-registry.mjs --upstream https://registry.npmjs.org/ [--pin name@version]… package.tgz…
// Serves each tarball (its package.json's name and version) as the only version of its package: the packument
// (dist-tags.latest, versions[v] = package.json + dist { tarball, integrity (sha512 SRI), shasum }) and the tarball.
// Every other request goes to the upstream registry, streamed with its status and content-type: other packages'
// metadata, and their tarballs (npm's default replace-registry-host=npmjs sends registry.npmjs.org tarballs here too).
// --pin sets an upstream package's dist-tags.latest, so `npm i name` installs that version (the flow's pinned
// TypeScript, @types/node, zod) while the command stays the one the docs show.
// Prints its base URL (http://127.0.0.1:<port>/<random>/, a fresh path per run so npm's cache never answers for an
// earlier run's packages) on stdout and serves until it is killed.
import { Buffer } from "node:buffer";
import { execFileSync } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({
  options: { upstream: { type: "string" }, pin: { type: "string", multiple: true, default: [] } },
  allowPositionals: true,
});
if (!values.upstream || positionals.length === 0) {
  console.error("usage: local-registry.mjs --upstream <registry URL> [--pin name@version]… <package.tgz>…");
  process.exit(2);
}
const upstream = values.upstream.endsWith("/") ? values.upstream : `${values.upstream}/`;
/** name → version its packument's dist-tags.latest is set to. */
const pins = new Map(
  values.pin.map((pin) => [pin.slice(0, pin.lastIndexOf("@")), pin.slice(pin.lastIndexOf("@") + 1)]),
);
const prefix = `/${randomUUID()}/`;

/** Path (under prefix) → the bytes served there; packuments are filled in once the port is known. */
const tarballs = new Map();
const manifests = [];
for (const file of positionals) {
  const manifest = JSON.parse(execFileSync("tar", ["-xzOf", file, "package/package.json"], { encoding: "utf8" }));
  const tarballPath = `${manifest.name}/-/${manifest.name.split("/").pop()}-${manifest.version}.tgz`;
  tarballs.set(tarballPath, readFileSync(file));
  manifests.push({ manifest, tarballPath });
}
const packuments = new Map();

/** The packument npm reads for a package this registry serves itself. */
function packument({ manifest, tarballPath }, base) {
  const bytes = tarballs.get(tarballPath);
  const dist = {
    tarball: base + tarballPath,
    integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
    shasum: createHash("sha1").update(bytes).digest("hex"),
  };
  const { name, version } = manifest;
  return JSON.stringify({ name, "dist-tags": { latest: version }, versions: { [version]: { ...manifest, dist } } });
}

function send(response, status, contentType, body) {
  response.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(body) });
  response.end(body);
}

/** The upstream's answer, streamed; a pinned package's packument parsed and its latest tag moved first. */
async function passThrough(request, response, rest, name) {
  const headers = request.headers.accept ? { accept: request.headers.accept } : {};
  const answer = await fetch(upstream + rest, { headers });
  const contentType = answer.headers.get("content-type");
  const pinned = pins.get(name);
  if (pinned === undefined || !answer.ok) {
    response.writeHead(answer.status, contentType ? { "content-type": contentType } : {});
    if (!answer.body) return response.end();
    Readable.fromWeb(answer.body)
      .on("error", () => response.destroy())
      .pipe(response);
    return;
  }
  const document = await answer.json();
  if (!document.versions?.[pinned]) {
    return send(response, 502, "text/plain", `upstream has no ${name}@${pinned} to pin\n`);
  }
  document["dist-tags"] = { ...document["dist-tags"], latest: pinned };
  send(response, 200, contentType ?? "application/json", JSON.stringify(document));
}

async function handle(request, response) {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return send(response, 405, "text/plain", `${request.method} is not served here: a read-only registry\n`);
  }
  const url = request.url ?? "";
  if (!url.startsWith(prefix)) return send(response, 404, "text/plain", `not under ${prefix}\n`);
  const rest = url.slice(prefix.length);
  let name;
  try {
    name = decodeURIComponent(rest);
  } catch {
    return send(response, 400, "text/plain", "the path is not valid percent-encoding\n");
  }
  if (packuments.has(name)) return send(response, 200, "application/json", packuments.get(name));
  const tarball = tarballs.get(name);
  if (tarball) {
    response.writeHead(200, { "content-type": "application/octet-stream", "content-length": tarball.length });
    return response.end(tarball);
  }
  await passThrough(request, response, rest, name);
}

const server = createServer((request, response) => {
  handle(request, response).catch((error) => {
    if (response.headersSent) return response.destroy();
    send(response, 502, "text/plain", `upstream request failed: ${error.cause?.message ?? error.message}\n`);
  });
});
server.listen(0, "127.0.0.1", () => {
  const base = `http://127.0.0.1:${server.address().port}${prefix}`;
  for (const served of manifests) packuments.set(served.manifest.name, packument(served, base));
  console.log(base);
});

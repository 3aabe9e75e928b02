#!/usr/bin/env bash
# The first five minutes of a user, outside this repository (`npm run test:user-flow`; run by .ci/run):
#   npm pack both packages → a fresh `npm init -y` project in a temp folder → npm i <runtime.tgz> zod and
#   npm i -D <cli.tgz> typescript @types/node → mcp-gen init (nothing edited) → mcp-gen generate → npm run check →
#   tsc with a plain config (module/moduleResolution nodenext, strict, no allowImportingTsExtensions) to JavaScript →
#   the built server over stdio and over HTTP, called by the official SDK v1 client → an esbuild bundle of the server,
#   run from a folder without node_modules → the production footprint of the runtime (npm i --omit=dev of the runtime
#   tarball + zod alone: packages and MB, checked against the SDK v1 server's 29 MB).
# Everything goes to a temp folder that is removed at the end (kept with KEEP=1). Packages not packed here come
# from the npm registry at the versions this repository's lock file pins.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/mcp-gen-user-flow.XXXXXX")"
HTTP_PID=""
cleanup() {
  if [ -n "$HTTP_PID" ]; then kill "$HTTP_PID" 2>/dev/null || true; fi
  if [ "${KEEP:-}" = 1 ]; then echo "user-flow: kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
step() { echo "user-flow: $*"; }
fail() { echo "user-flow: FAILED: $*" >&2; exit 1; }
NPM_FLAGS=(--no-audit --no-fund --prefer-offline --loglevel=error)
# Versions pinned by the repository (the same ones its own tests use).
pinned() { node -p "require('$REPO/package-lock.json').packages['node_modules/$1'].version"; }
ZOD="zod@$(pinned zod)"
DEV_DEPS=("typescript@$(pinned typescript)" "@types/node@$(pinned @types/node)" "@modelcontextprotocol/sdk@1.32.2" "esbuild@$(pinned esbuild)")
CLI_VERSION="$(node -p "require('$REPO/generator/package.json').version")"

step "packing @mcp-gen/runtime and mcp-gen (prepack builds them)"
mkdir -p "$WORK/packs"
(cd "$REPO" && npm pack -w runtime -w generator --pack-destination "$WORK/packs" --loglevel=error >/dev/null)
RUNTIME_TGZ="$(ls "$WORK"/packs/mcp-gen-runtime-*.tgz)"
CLI_TGZ="$(ls "$WORK"/packs/mcp-gen-[0-9]*.tgz)"
CLI_FILES="$(tar -tzf "$CLI_TGZ")"
RUNTIME_FILES="$(tar -tzf "$RUNTIME_TGZ")"
grep -q '^package/dist/templates/' <<<"$CLI_FILES" || fail "the CLI tarball has no templates"
grep -q '^package/dist/runtime/index.d.ts$' <<<"$RUNTIME_FILES" || fail "the runtime tarball has no declarations"
if grep -E '\.ts$' <<<"$CLI_FILES$RUNTIME_FILES" | grep -qv '\.d\.ts$'; then fail "a tarball ships TypeScript sources"; fi
step "runtime: $(wc -l <<<"$RUNTIME_FILES") files, CLI: $(wc -l <<<"$CLI_FILES") files"

APP="$WORK/app"
mkdir -p "$APP" && cd "$APP"
step "new project in $APP: npm init -y, npm i <runtime.tgz> $ZOD, npm i -D <cli.tgz> ${DEV_DEPS[*]}"
npm init -y >/dev/null
npm i "${NPM_FLAGS[@]}" "$RUNTIME_TGZ" "$ZOD"
npm i -D "${NPM_FLAGS[@]}" "$CLI_TGZ" "${DEV_DEPS[@]}"
[ -d node_modules/mcp-gen/dist ] || fail "mcp-gen is not installed"
[ -L node_modules/mcp-gen ] && fail "mcp-gen is a symlink, not an installed copy"
[ ! -d node_modules/tsx ] || fail "tsx was installed: the CLI must not need it at run time"

version="$(npx mcp-gen --version)"
[ "$version" = "$CLI_VERSION" ] || fail "mcp-gen --version printed '$version', expected the CLI's $CLI_VERSION"
step "mcp-gen --version → $version"

step "npx mcp-gen init"
npx mcp-gen init
installed_before="$(find node_modules -type f | wc -l)"
step "npx mcp-gen generate"
npx mcp-gen generate
[ "$(find node_modules -type f | wc -l)" = "$installed_before" ] || fail "generate changed node_modules"
[ "$(node -p 'require("./package.json").type')" = module ] || fail 'init did not set "type": "module"'

step "npm run check (the scripts init added)"
npm run --silent check

step "tsc with a plain config (nodenext, strict, no allowImportingTsExtensions) → build/"
cat > tsconfig.plain.json <<'JSON'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "nodenext",
    "moduleResolution": "nodenext",
    "strict": true,
    "skipLibCheck": false,
    "rootDir": "src",
    "outDir": "build"
  },
  "include": ["src"]
}
JSON
npx tsc -p tsconfig.plain.json
[ -f build/server.js ] && [ -f build/http.js ] || fail "the build has no build/server.js and build/http.js"
cp "$REPO/test/package/sdk-client.mjs" .

step "the built stdio server, called by the SDK v1 client"
node sdk-client.mjs stdio node build/server.js

# Starts `node <file>` with PORT=0, waits for the URL it prints, calls it with the SDK client, stops it.
call_http() {
  PORT=0 node "$1" >"$WORK/http.log" 2>&1 &
  HTTP_PID=$!
  local url=""
  for _ in $(seq 1 100); do
    url="$(grep -Eo 'http://[^ ]+' "$WORK/http.log" | head -n 1 || true)"
    [ -n "$url" ] && break
    kill -0 "$HTTP_PID" 2>/dev/null || fail "the HTTP server $1 exited: $(cat "$WORK/http.log")"
    sleep 0.1
  done
  [ -n "$url" ] || fail "the HTTP server $1 printed no URL: $(cat "$WORK/http.log")"
  node "$APP/sdk-client.mjs" http "$url"
  kill "$HTTP_PID"
  wait "$HTTP_PID" 2>/dev/null || true
  HTTP_PID=""
}

step "the built HTTP server, called by the SDK v1 client"
call_http build/http.js

step "npm run build && the scaffold's own entry (npm start) over stdio"
npm run --silent build
node sdk-client.mjs stdio npm start --silent

step "esbuild bundles of the stdio and HTTP servers, run from a folder without node_modules"
for entry in server http; do
  npx esbuild "src/$entry.ts" --bundle --platform=node --format=esm --target=node20 --log-level=warning \
    --outfile="$WORK/bundle/$entry.mjs"
done
node sdk-client.mjs stdio node "$WORK/bundle/server.mjs"
call_http "$WORK/bundle/http.mjs"

step "production install: npm i --omit=dev <runtime.tgz> $ZOD"
PROD="$WORK/prod"
mkdir -p "$PROD" && cd "$PROD"
npm init -y >/dev/null
npm i --omit=dev "${NPM_FLAGS[@]}" "$RUNTIME_TGZ" "$ZOD"
packages="$(npm ls --all --parseable --omit=dev | tail -n +2 | wc -l)"
megabytes="$(du -sm node_modules | cut -f1)"
step "production footprint of a generated server: $packages packages, $megabytes MB (SDK v1 server: 29 MB)"
for heavy in typescript ts-morph prettier tsx esbuild handlebars yargs json-schema-to-typescript; do
  [ ! -e "node_modules/$heavy" ] || fail "the runtime's production install contains $heavy"
done
[ "$megabytes" -le 29 ] || fail "the runtime's production install ($megabytes MB) is heavier than an SDK v1 server's (29 MB)"
step "ok"

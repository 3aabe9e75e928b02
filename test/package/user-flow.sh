#!/usr/bin/env bash
# The first five minutes of a user, outside this repository (`npm run test:user-flow`; run by .ci/run): the README's
# Quick start, its first ```sh block run line by line as written, under TypeScript 5.9 and under TypeScript 7; the
# TypeScript 7 pass installs the published way instead (the two `npm i` lines the README and docs/manifest.md show for
# once the packages are on the registry), from a loopback registry serving the packed tarballs.
#   npm pack both packages into a folder, MCP_GEN (the README has the reader do the same in a clone) → for each
#   TypeScript: a fresh project in a temp folder, every line of the block (`npm start` and `npm run start:http` are
#   started by the official SDK v1 client, which calls the server's tool) → checks the block does not show: generate
#   leaves node_modules alone, `npm run check`, init's tsconfig with skipLibCheck: false, a wrong handler output fails
#   tsc at the field with its expected type → (once) esbuild bundles of the stdio and HTTP servers run from a folder
#   without node_modules → (once) user-flow-tasks.sh: a task tool, its task form in the generated client over HTTP, and
#   the Redis store (`npm i redis`, a real redis-server) shared by two server processes → the runtime's production
#   footprint (npm i --omit=dev of the runtime tarball + zod), which must be the figure the README states.
# Package versions the block leaves open (typescript, @types/node, zod) are pinned to this repository's lock file
# (TypeScript 7: its typescript7 alias): added to the install lines, or in the published pass set as the loopback
# registry's latest, so the lines run are exactly the documented ones; the rest comes from the npm registry (in the
# published pass through the loopback registry, test/package/local-registry.mjs, which must serve the packed tarballs:
# the flow compares what was installed with them). Everything goes to a temp folder that is removed at the end (kept
# with KEEP=1). TS=5 or TS=7 runs one TypeScript only.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/mcp-gen-user-flow.XXXXXX")"
SERVER_PIDS=() # process groups of the servers running now (start_http, redis-server), stopped by stop_servers
REGISTRY_PID="" # the loopback registry of the published pass (start_registry), stopped by stop_registry
stop_servers() {
  local pid
  for pid in ${SERVER_PIDS[@]+"${SERVER_PIDS[@]}"}; do
    kill -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  SERVER_PIDS=()
}
cleanup() {
  stop_servers
  stop_registry
  if [ "${KEEP:-}" = 1 ]; then echo "user-flow: kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
step() { echo "user-flow: $*"; }
fail() { echo "user-flow: FAILED: $*" >&2; exit 1; }
export npm_config_audit=false npm_config_fund=false npm_config_prefer_offline=true npm_config_loglevel=error
# Versions pinned by the repository (the same ones its own tests use).
pinned() { node -p "require('$REPO/package-lock.json').packages['node_modules/$1'].version"; }
TS_VERSIONS=("5:$(pinned typescript)" "7:$(pinned typescript7)")
CLI_VERSION="$(node -p "require('$REPO/generator/package.json').version")"

step "the README's Quick start block"
QUICK_START="$(awk '/^## Quick start/ { q = 1 } q && /^```/ { if (b) exit; if ($0 == "```sh") { b = 1; next } } b' "$REPO/README.md")"
[ -n "$QUICK_START" ] || fail "README.md has no \`\`\`sh block under ## Quick start"
printf '%s\n' "$QUICK_START" | sed 's/^/  | /'

step "packing @mcp-gen/runtime and mcp-gen into MCP_GEN (prepack builds them)"
export MCP_GEN="$WORK/packs"
mkdir -p "$MCP_GEN"
(cd "$REPO" && npm pack -w runtime -w generator --pack-destination "$MCP_GEN" --loglevel=error >/dev/null)
RUNTIME_TGZ="$MCP_GEN/mcp-gen-runtime-$(node -p "require('$REPO/runtime/package.json').version").tgz"
CLI_TGZ="$MCP_GEN/mcp-gen-$CLI_VERSION.tgz"
[ -f "$RUNTIME_TGZ" ] && [ -f "$CLI_TGZ" ] || fail "npm pack wrote $(ls "$MCP_GEN"), not $RUNTIME_TGZ and $CLI_TGZ"
CLI_FILES="$(tar -tzf "$CLI_TGZ")"
RUNTIME_FILES="$(tar -tzf "$RUNTIME_TGZ")"
grep -q '^package/templates/init/' <<<"$CLI_FILES" || fail "the CLI tarball has no templates"
grep -q '^package/generated/protocol/[^/]*/ir.json$' <<<"$RUNTIME_FILES" || fail "the runtime tarball has no built-in IRs"
grep -q '^package/manifest/mcp-manifest.schema.json$' <<<"$CLI_FILES" || fail "the CLI tarball has no manifest schema"
grep -q '^package/dist/index.d.ts$' <<<"$RUNTIME_FILES" || fail "the runtime tarball has no declarations"
if grep -E '\.ts$' <<<"$CLI_FILES$RUNTIME_FILES" | grep -qv '\.d\.ts$'; then fail "a tarball ships TypeScript sources"; fi
step "runtime: $(wc -l <<<"$RUNTIME_FILES") files, CLI: $(wc -l <<<"$CLI_FILES") files"

step "tools of the flow itself, outside the projects: the SDK v1 client and esbuild"
TOOLS="$WORK/tools"
mkdir -p "$TOOLS" && cd "$TOOLS" && npm init -y >/dev/null
npm i "@modelcontextprotocol/sdk@$(pinned @modelcontextprotocol/sdk)" "esbuild@$(pinned esbuild)" >/dev/null
cp "$REPO/test/package/sdk-client.mjs" "$TOOLS/"
sdk_client() { EXPECT_SERVER_NAME="$SERVER_NAME" node "$TOOLS/sdk-client.mjs" "$@"; }

# start_http NAME COMMAND…: starts the command in its own process group with PORT=0 (output in $WORK/NAME.log), waits
# for the URL it prints and sets URL to it; stop_servers stops the group (npm run and the node it starts).
start_http() {
  local log="$WORK/$1.log"
  shift
  PORT=0 setsid "$@" >"$log" 2>&1 &
  local pid=$!
  SERVER_PIDS+=("$pid")
  wait_for_url "$log" "$pid" "the HTTP server ($*)"
}
# wait_for_url LOG PID WHAT: waits (30 s at most) for the process PID to print an http:// URL into LOG; sets URL to the
# first one, or fails naming WHAT when the process exits or prints none.
wait_for_url() {
  URL=""
  for _ in $(seq 1 300); do
    URL="$(grep -Eo 'http://[^ ]+' "$1" | head -n 1 || true)"
    [ -n "$URL" ] && return 0
    kill -0 "$2" 2>/dev/null || fail "$3 exited: $(cat "$1")"
    sleep 0.1
  done
  fail "$3 printed no URL: $(cat "$1")"
}
# Starts the command (start_http), calls it with the SDK client, stops it.
call_http() {
  start_http http "$@"
  sdk_client http "$URL"
  stop_servers
}

# start_registry TYPESCRIPT_VERSION: the loopback registry (local-registry.mjs) serving the packed tarballs as the
# published packages, everything else from the configured registry, with the versions the block leaves open pinned as
# their latest; sets REGISTRY to its URL.
start_registry() {
  local log="$WORK/registry.log"
  node "$REPO/test/package/local-registry.mjs" --upstream "$(npm config get registry)" --pin "typescript@$1" \
    --pin "@types/node@$(pinned @types/node)" --pin "zod@$(pinned zod)" "$RUNTIME_TGZ" "$CLI_TGZ" >"$log" 2>&1 &
  REGISTRY_PID=$!
  wait_for_url "$log" "$REGISTRY_PID" "the loopback registry"
  REGISTRY="$URL"
}
stop_registry() {
  [ -z "$REGISTRY_PID" ] || kill "$REGISTRY_PID" 2>/dev/null || true
  [ -z "$REGISTRY_PID" ] || wait "$REGISTRY_PID" 2>/dev/null || true
  REGISTRY_PID=""
}

# An install line of the block as the docs say it reads once the packages are published, run as written against the
# loopback registry, then checked (run in a subshell: the registry setting stays there).
published_install() {
  export npm_config_registry="$REGISTRY"
  case "$1" in
    'npm i "$MCP_GEN/mcp-gen-runtime-'*)
      step "[published] \$ npm i @mcp-gen/runtime zod"
      npm i @mcp-gen/runtime zod
      installed_is_packed @mcp-gen/runtime "$RUNTIME_TGZ"
      ;;
    'npm i -D "$MCP_GEN/mcp-gen-'*)
      step "[published] \$ npm i -D mcp-gen typescript @types/node"
      npm i -D mcp-gen typescript @types/node
      installed_is_packed mcp-gen "$CLI_TGZ"
      ;;
    *) fail "an install line with no published form: $1" ;;
  esac
}

# installed_is_packed NAME TARBALL: the published install put the packed tarball there, not another package under its
# name: the lock file records the tarball's sha512 and node_modules/NAME holds exactly its files.
installed_is_packed() {
  local expected locked
  expected="$(node -p 'const { createHash } = require("crypto");
    "sha512-" + createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64")' "$2")"
  locked="$(node -p "require('./package-lock.json').packages['node_modules/$1']?.integrity")"
  [ "$locked" = "$expected" ] || fail "$1 was installed as $locked, not the packed $(basename "$2") ($expected)"
  rm -rf "$WORK/unpacked" && mkdir "$WORK/unpacked" && tar -xzf "$2" -C "$WORK/unpacked"
  diff -r -x node_modules "$WORK/unpacked/package" "node_modules/$1" >/dev/null ||
    fail "node_modules/$1 is not the content of $(basename "$2")"
  step "[published] node_modules/$1 is $(basename "$2"), as packed"
}

# A line of the block, as written except for the pinned versions of the packages it leaves open.
pin_versions() {
  sed -E "s/(^| )typescript( |$)/\1typescript@$1\2/; s/(^| )@types\/node( |$)/\1@types\/node@$(pinned @types/node)\2/; \
s/(^| )zod( |$)/\1zod@$(pinned zod)\2/"
}

# The block under one TypeScript, in a new project folder; PUBLISHED=1: its installs in their published form.
quick_start() {
  local major="$1" version="$2"
  APP="$WORK/app-ts$major"
  mkdir -p "$APP" && cd "$APP"
  SERVER_NAME="app-ts$major" # what npm init -y names the package, so what the server must be called
  while IFS= read -r line; do
    local command
    command="$(sed -E 's/[[:space:]]+#.*$//; s/^#.*$//; s/[[:space:]]+$//' <<<"$line")"
    [ -n "$command" ] || continue
    case "$command" in
      "npm i "* | "npm install "*)
        if [ "$PUBLISHED" = 1 ]; then
          (published_install "$command")
          continue
        fi
        command="$(pin_versions "$version" <<<"$command")"
        ;;
    esac
    step "[TypeScript $major] \$ $command"
    case "$command" in
      "npm start") sdk_client stdio npm start ;;
      "npm run start:http") call_http npm run start:http ;;
      *) eval "$command" ;;
    esac
  done <<<"$QUICK_START"
}

# What the block does not show, in the project it made.
after_quick_start() {
  local major="$1" version="$2"
  cd "$APP"
  [ "$(npx tsc --version)" = "Version $version" ] || fail "the project's tsc is $(npx tsc --version), not $version"
  [ -d node_modules/mcp-gen/dist ] || fail "mcp-gen is not installed"
  [ -L node_modules/mcp-gen ] && fail "mcp-gen is a symlink, not an installed copy"
  [ ! -d node_modules/tsx ] || fail "tsx was installed: the CLI must not need it at run time"
  [ "$(npx mcp-gen --version)" = "$CLI_VERSION" ] || fail "mcp-gen --version is not the CLI's $CLI_VERSION"
  [ "$(node -p 'require("./package.json").type')" = module ] || fail 'init did not set "type": "module"'
  grep -q "^  name: \"$SERVER_NAME\"$" mcp.yaml || fail "mcp.yaml does not name the server $SERVER_NAME"
  local schema
  schema="$(sed -nE '1s/^# yaml-language-server: \$schema=(.+)$/\1/p' mcp.yaml)"
  [ -n "$schema" ] && [ -f "$schema" ] || fail "mcp.yaml's first line names no schema file that exists: $(head -n 1 mcp.yaml)"
  cmp -s "$schema" "$REPO/generator/manifest/mcp-manifest.schema.json" || fail "$schema is not the CLI's manifest schema"

  local installed_before
  installed_before="$(find node_modules -type f | wc -l)"
  step "[TypeScript $major] npx mcp-gen generate, npm run check"
  npx mcp-gen generate
  [ "$(find node_modules -type f | wc -l)" = "$installed_before" ] || fail "generate changed node_modules"
  npm run --silent check

  step "[TypeScript $major] init's tsconfig with skipLibCheck: false (the runtime's and zod's declarations checked)"
  echo '{ "extends": "./tsconfig.json", "compilerOptions": { "skipLibCheck": false, "noEmit": true } }' \
    >tsconfig.libcheck.json
  npx tsc -p tsconfig.libcheck.json
  rm tsconfig.libcheck.json

  step "[TypeScript $major] a wrong structuredContent fails tsc at the field, with the type it must have"
  cp src/handlers.ts "$WORK/handlers.ts"
  sed -i 's/greeting: `Hello, ${name}!`/greeting: name.length/' src/handlers.ts
  local at output
  at="$(grep -n 'greeting: name.length' src/handlers.ts | awk -F: '{ print $1 "," index($0, "greeting") - length($1) - 1 }')"
  [ -n "$at" ] || fail "could not plant the wrong output in src/handlers.ts"
  if output="$(npx tsc --noEmit --pretty false)"; then fail "tsc accepted a number as greeting"; fi
  grep -qF "src/handlers.ts($at): error TS2322: Type 'number' is not assignable to type 'string'." <<<"$output" ||
    fail "tsc's diagnostic does not point at greeting ($at) with its type: $output"
  if grep -q "type 'undefined'" <<<"$output"; then fail "tsc explained the error against the isError branch: $output"; fi
  cp "$WORK/handlers.ts" src/handlers.ts
}

FIRST=1
for entry in "${TS_VERSIONS[@]}"; do
  major="${entry%%:*}" version="${entry#*:}"
  [ -z "${TS:-}" ] || [ "$TS" = "$major" ] || continue
  PUBLISHED=0
  if [ "$major" = 7 ]; then
    PUBLISHED=1
    step "[TypeScript 7] the published installs, from a loopback registry serving the packed tarballs"
    start_registry "$version"
  fi
  quick_start "$major" "$version"
  stop_registry
  after_quick_start "$major" "$version"
  if [ "$FIRST" = 1 ]; then
    FIRST=0
    step "esbuild bundles of the stdio and HTTP servers, run from a folder without node_modules"
    for entry_point in server http; do
      "$TOOLS/node_modules/.bin/esbuild" "src/$entry_point.ts" --bundle --platform=node --format=esm \
        --target=node20 --log-level=warning --outfile="$WORK/bundle/$entry_point.mjs"
    done
    sdk_client stdio node "$WORK/bundle/server.mjs"
    call_http node "$WORK/bundle/http.mjs"
    step "docs/deploying.md's Deno and Bun entries, saved in src/ as it says: npm run check, an esbuild bundle each"
    for platform in deno bun; do
      node -e '
        const [doc, name] = process.argv.slice(1);
        const block = [...require("fs").readFileSync(doc, "utf8").matchAll(/```ts\n(\/\/ src\/(\w+)\.ts\n[\s\S]*?)```/g)]
          .find((m) => m[2] === name);
        if (!block) { console.error(doc + " has no ```ts block opening // src/" + name + ".ts"); process.exit(1); }
        process.stdout.write(block[1]);
      ' "$REPO/docs/deploying.md" "$platform" >"src/$platform.ts"
    done
    npm run --silent check
    for platform in deno bun; do
      "$TOOLS/node_modules/.bin/esbuild" "src/$platform.ts" --bundle --format=esm --platform=neutral \
        --main-fields=module,main --log-level=warning --outfile="$WORK/bundle/$platform.js"
    done
    rm src/deno.ts src/bun.ts
    # shellcheck source=user-flow-tasks.sh
    source "$REPO/test/package/user-flow-tasks.sh"
    tasks_and_redis
  fi
done

step "production install: npm i --omit=dev <runtime.tgz> zod@$(pinned zod)"
PROD="$WORK/prod"
mkdir -p "$PROD" && cd "$PROD"
npm init -y >/dev/null
npm i --omit=dev "$RUNTIME_TGZ" "zod@$(pinned zod)"
packages="$(npm ls --all --parseable --omit=dev | tail -n +2 | wc -l)"
megabytes="$(du -sm node_modules | cut -f1)"
step "production footprint of a generated server: $packages packages, $megabytes MB (SDK v1 server: 29 MB)"
for heavy in typescript ts-morph prettier tsx esbuild handlebars yargs json-schema-to-typescript; do
  [ ! -e "node_modules/$heavy" ] || fail "the runtime's production install contains $heavy"
done
[ "$megabytes" -le 29 ] || fail "the runtime's production install ($megabytes MB) is heavier than an SDK v1 server's (29 MB)"
# The README states the figure: it must be the one measured (MB within 1: disk usage varies with the file system).
stated="$(grep -Eo '[0-9]+ packages, [0-9]+ MB installed with zod' "$REPO/README.md" | head -n 1)"
[ -n "$stated" ] || fail "README.md states no 'N packages, M MB installed with zod'"
read -r stated_packages _ stated_megabytes _ <<<"$stated"
[ "$stated_packages" = "$packages" ] && [ $((stated_megabytes - megabytes)) -le 1 ] &&
  [ $((megabytes - stated_megabytes)) -le 1 ] ||
  fail "README.md says '$stated'; measured $packages packages, $megabytes MB"
step "ok"

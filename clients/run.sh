#!/usr/bin/env bash
# Proves the mcpgen weather example with MCP clients nobody here wrote: the
# TypeScript SDK v2 (pinned to 2026-07-28 and in auto mode), the TypeScript
# SDK v1 (legacy initialize handshake) and the Inspector CLI (modern and
# legacy eras), each over stdio and Streamable HTTP. All pinned in
# package-lock.json, with the Node 22 they run on.
#
# Usage:
#   clients/run.sh [SUITE...]
#
#   SUITE is one of v2, skills (the TS SDK v2 Skills extension client), v1,
#   inspector, oauth (the TS SDK v2 OAuth flow against a protected server
#   and a real authorization server, oauth/internal/cmd/authdemo), go (the
#   other direction: the mcpgen Go client, clients/go, its own module,
#   against the go-sdk, mcp-go and TS SDK v2 servers) (default: all). The env var
#   MCPGEN_CLIENT_SUITES="v2,inspector" selects suites the same way when no
#   argument is given.
#   MCPGEN_WEATHER_BIN=<path> tests that binary instead of building
#   ./examples/weather.
#
# Output is the Node test runner's TAP, ending in "# pass N" / "# fail N".
# Exit status: the test runner's (0 iff every test passed), or 2 for usage
# errors and setup failures.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

die() {
	echo "clients/run.sh: $*" >&2
	exit 2
}

# 0. Which suites.
declare -A suite_file=(
	[v2]=tests/ts-sdk-v2.test.mjs
	[skills]=tests/ts-sdk-v2-skills.test.mjs
	[v1]=tests/ts-sdk-v1.test.mjs
	[inspector]=tests/inspector.test.mjs
	[oauth]=tests/oauth.test.mjs
	[v1-replicas]=tests/ts-sdk-v1-replicas.test.mjs # not in the default set: needs MCPGEN_REPLICAS_URL (.ci/replicas with)
)
suites=("$@")
if ((${#suites[@]} == 0)) && [[ -n "${MCPGEN_CLIENT_SUITES:-}" ]]; then
	IFS=', ' read -r -a suites <<<"$MCPGEN_CLIENT_SUITES"
fi
((${#suites[@]})) || suites=(v2 skills v1 inspector oauth go)
files=()
run_go=0
for s in "${suites[@]}"; do
	case "$s" in
	-h | --help) sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
	esac
	if [[ "$s" == go ]]; then
		run_go=1
		continue
	fi
	[[ -n "${suite_file[$s]+x}" ]] || die "unknown suite \"$s\" (want v2, skills, v1, inspector, oauth or go)"
	files+=("${suite_file[$s]}")
done

node22="$here/node_modules/node/bin/node"
stamp="$here/node_modules/.mcpgen-lock.sha256"
need=(
	"$here/node_modules/@modelcontextprotocol/client/package.json"
	"$here/node_modules/@modelcontextprotocol/sdk/package.json"
	"$here/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"
	"$here/node_modules/@modelcontextprotocol/server/package.json"
)

# 1. Install the pinned clients + Node 22, unless node_modules matches package-lock.json.
want_stamp="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)"
installed=1
[[ -x "$node22" && -f "$stamp" && "$(cat "$stamp" 2>/dev/null)" == "$want_stamp" ]] || installed=0
for f in "${need[@]}"; do [[ -f "$f" ]] || installed=0; done
if ((!installed)); then
	echo "clients/run.sh: npm ci in $here" >&2
	(cd "$here" && npm ci --no-audit --no-fund) >&2 || die "npm ci failed"
	[[ -x "$node22" ]] || die "npm ci did not produce $node22 (the node package's install script must run)"
	for f in "${need[@]}"; do [[ -f "$f" ]] || die "npm ci did not produce $f"; done
	echo "$want_stamp" >"$stamp"
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/mcpgen-clients.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# 2. Build the weather example (unless a binary was given).
if [[ -z "${MCPGEN_WEATHER_BIN:-}" ]]; then
	echo "clients/run.sh: go build ./examples/weather" >&2
	(cd "$repo" && go build -o "$tmp/weather" ./examples/weather) >&2 || die "building ./examples/weather failed"
	export MCPGEN_WEATHER_BIN="$tmp/weather"
fi
[[ -x "$MCPGEN_WEATHER_BIN" ]] || die "MCPGEN_WEATHER_BIN=$MCPGEN_WEATHER_BIN is not an executable"

# 2b. The oauth suite's authorization server and the mcpgen server it protects.
if [[ " ${suites[*]} " == *" oauth "* && -z "${MCPGEN_AUTHDEMO_BIN:-}" ]]; then
	echo "clients/run.sh: go build ./oauth/internal/cmd/authdemo" >&2
	(cd "$repo/oauth" && go build -o "$tmp/authdemo" ./internal/cmd/authdemo) >&2 || die "building oauth/internal/cmd/authdemo failed"
	export MCPGEN_AUTHDEMO_BIN="$tmp/authdemo"
fi

# 3. Run the tests with Node 22's test runner (TAP, so the totals read "# pass N").
# Every test has its own timeout; the outer one only guards against a wedged runner.
status=0
if ((${#files[@]})); then
	echo "clients/run.sh: node --test ${files[*]} (suites: ${suites[*]})" >&2
	(cd "$here" && timeout --kill-after=10s 300s "$node22" --test --test-reporter=tap "${files[@]}") || status=$?
	echo "clients/run.sh: test runner exit status $status" >&2
fi

# 4. The Go client against real servers (its own module: go-sdk and mcp-go stay out of the main one).
if ((run_go)); then
	echo "clients/run.sh: go test ./... in clients/go" >&2
	go_status=0
	(cd "$here/go" && go test -count=1 ./...) || go_status=$?
	echo "clients/run.sh: go test exit status $go_status" >&2
	((status == 0)) && status=$go_status
fi
exit "$status"

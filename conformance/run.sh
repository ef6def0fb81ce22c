#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned
# in package.json) against an MCP server speaking Streamable HTTP on 127.0.0.1,
# or (--client) against the mcpgen Go client.
#
# Usage:
#   conformance/run.sh [--requirements 2026-07-28|2025-11-25 | --scenario NAME ...]
#                      [--server-cmd "<cmd>"] [--url-path /mcp] [--keep-results DIR]
#                      [--verbose] [-- <extra suite args>]
#   conformance/run.sh --client [--scenario NAME ...] [--keep-results DIR]
#                      [-- <extra suite args>]
#
#   --client        run "conformance client --requirements 2026-07-28" with the Go
#                   client fixture (conformance/client, built here): the suite's
#                   scenario servers run it with their URL appended. The auth/*
#                   scenarios are baselined in conformance/client-baseline.yml (a
#                   baselined scenario that passes fails the run: remove it then).
#                   With --scenario, only those client scenarios run, and each
#                   must pass every one of its checks.
#   --requirements  requirement set to run (default 2026-07-28).
#   --scenario      run this scenario instead (repeatable; e.g. the extension scenarios
#                   sep-2640-skills-directory, which no requirement set includes); each
#                   scenario must pass every one of its checks (a SKIPPED or WARNING
#                   check fails the run).
#   --server-cmd    command that starts the server. "{addr}" and "{port}" in it are
#                   replaced by the chosen 127.0.0.1:PORT / PORT; if neither appears,
#                   "--http 127.0.0.1:PORT" is appended. Default: build ./examples/everything
#                   from the repo root and run it with "--http 127.0.0.1:PORT".
#   --url-path      path the server serves MCP at (default /mcp).
#   --keep-results  write the suite's per-scenario checks.json files to DIR (kept);
#                   otherwise they go to a temporary directory that is removed.
#   --verbose       also print the server's log after the run.
#   after "--"      extra arguments passed to the suite's "server" command as is.
#
# Exit status: 0 iff the suite's own status is 0 (every scored scenario passed) and,
# for a requirement set, no check of any scenario (pending ones too) failed or
# warned; 2 for usage errors / a server that does not start.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

requirements="2026-07-28"
server_cmd=""
url_path="/mcp"
keep_results=""
verbose=0
client_mode=0
extra=()
scenarios=()

usage() {
	sed -n '2,33p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

die() {
	echo "run.sh: $*" >&2
	exit 2
}

while (($#)); do
	case "$1" in
	--requirements) (($# >= 2)) || die "--requirements needs a value"; requirements="$2"; shift 2 ;;
	--requirements=*) requirements="${1#*=}"; shift ;;
	--scenario) (($# >= 2)) || die "--scenario needs a value"; scenarios+=("$2"); shift 2 ;;
	--scenario=*) scenarios+=("${1#*=}"); shift ;;
	--server-cmd) (($# >= 2)) || die "--server-cmd needs a value"; server_cmd="$2"; shift 2 ;;
	--server-cmd=*) server_cmd="${1#*=}"; shift ;;
	--url-path) (($# >= 2)) || die "--url-path needs a value"; url_path="$2"; shift 2 ;;
	--url-path=*) url_path="${1#*=}"; shift ;;
	--keep-results) (($# >= 2)) || die "--keep-results needs a value"; keep_results="$2"; shift 2 ;;
	--keep-results=*) keep_results="${1#*=}"; shift ;;
	--verbose) verbose=1; shift ;;
	--client) client_mode=1; shift ;;
	-h | --help) usage ;;
	--) shift; extra=("$@"); break ;;
	*) echo "run.sh: unknown argument: $1" >&2; usage ;;
	esac
done

case "$requirements" in
2026-07-28 | 2025-11-25) ;;
*) die "--requirements must be 2026-07-28 or 2025-11-25, got \"$requirements\"" ;;
esac
[[ "$url_path" == /* ]] || die "--url-path must start with /, got \"$url_path\""

node22="$here/node_modules/node/bin/node"
suite="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
stamp="$here/node_modules/.mcpgen-lock.sha256"

# 1. Install the pinned suite + Node 22, unless node_modules matches package-lock.json.
want_stamp="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)"
if [[ ! -x "$node22" || ! -f "$suite" || ! -f "$stamp" || "$(cat "$stamp")" != "$want_stamp" ]]; then
	echo "run.sh: npm ci in $here" >&2
	(cd "$here" && npm ci --no-audit --no-fund) >&2
	[[ -x "$node22" ]] || die "npm ci did not produce $node22 (the node package's install script must run)"
	[[ -f "$suite" ]] || die "npm ci did not produce $suite"
	echo "$want_stamp" >"$stamp"
fi

# all_checks_pass DIR NAME: every checks.json under DIR records only
# SUCCESS checks (and at least one) besides INFO ones (the client scenarios'
# request log): a scenario run by name must pass every check; a SKIPPED or
# WARNING check is not a pass.
all_checks_pass() {
	"$node22" -e '
const fs = require("fs"), path = require("path");
const files = [];
const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).forEach((e) =>
  e.isDirectory() ? walk(path.join(d, e.name)) : e.name === "checks.json" && files.push(path.join(d, e.name)));
walk(process.argv[1]);
const checks = files.flatMap((f) => JSON.parse(fs.readFileSync(f, "utf8")));
const scored = checks.filter((c) => c.status !== "INFO");
const bad = scored.filter((c) => c.status !== "SUCCESS");
for (const c of bad) console.error(`run.sh: ${process.argv[2]}: ${c.id} ${c.status}: ${c.errorMessage ?? ""}`);
if (scored.length === 0) console.error(`run.sh: ${process.argv[2]}: no checks recorded`);
process.exit(bad.length === 0 && scored.length > 0 ? 0 : 1);
' "$1" "$2"
}

# no_check_failed DIR: no checks.json under DIR records a FAILURE or a
# WARNING. The suite's own exit status ignores the scenarios it marks
# pending or added-after-release; a requirement run here holds them to the
# same bar (a SKIPPED check, which the suite itself skips, still passes).
no_check_failed() {
	"$node22" -e '
const fs = require("fs"), path = require("path");
const files = [];
const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).forEach((e) =>
  e.isDirectory() ? walk(path.join(d, e.name)) : e.name === "checks.json" && files.push(path.join(d, e.name)));
walk(process.argv[1]);
const bad = files.flatMap((f) => JSON.parse(fs.readFileSync(f, "utf8")).map((c) => ({ ...c, file: f })))
  .filter((c) => c.status === "FAILURE" || c.status === "WARNING");
for (const c of bad) console.error(`run.sh: ${path.basename(path.dirname(c.file))}: ${c.id} ${c.status}: ${c.errorMessage ?? ""}`);
if (files.length === 0) console.error("run.sh: no checks recorded");
process.exit(bad.length === 0 && files.length > 0 ? 0 : 1);
' "$1"
}

if ((client_mode)); then
	tmp="$(mktemp -d "${TMPDIR:-/tmp}/mcpgen-conformance.XXXXXX")"
	trap 'rm -rf "$tmp"' EXIT
	echo "run.sh: go build ./conformance/client" >&2
	(cd "$repo" && go build -o "$tmp/conformance-client" ./conformance/client) >&2 ||
		die "building ./conformance/client failed"
	if [[ -n "$keep_results" ]]; then
		mkdir -p "$keep_results"
		results="$(cd "$keep_results" && pwd)"
	else
		results="$tmp/results"
	fi
	status=0
	if ((${#scenarios[@]})); then
		for scenario in "${scenarios[@]}"; do
			echo "run.sh: conformance client --command $tmp/conformance-client --scenario $scenario" >&2
			"$node22" "$suite" client --command "$tmp/conformance-client" --scenario "$scenario" \
				-o "$results/$scenario" ${extra[@]+"${extra[@]}"} || status=$?
			all_checks_pass "$results/$scenario" "$scenario" || status=1
		done
	else
		echo "run.sh: conformance client --requirements 2026-07-28 --command $tmp/conformance-client" >&2
		"$node22" "$suite" client --command "$tmp/conformance-client" --requirements 2026-07-28 \
			--expected-failures "$here/client-baseline.yml" -o "$results" ${extra[@]+"${extra[@]}"} || status=$?
	fi
	[[ -n "$keep_results" ]] && echo "run.sh: results kept in $results" >&2
	echo "run.sh: suite exit status $status" >&2
	exit "$status"
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/mcpgen-conformance.XXXXXX")"
server_pid=""
cleanup() {
	if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
		# The server runs in its own process group (setsid): stop the whole group.
		kill -TERM -- "-$server_pid" 2>/dev/null || kill -TERM "$server_pid" 2>/dev/null || true
		for _ in $(seq 1 30); do
			kill -0 "$server_pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL -- "-$server_pid" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# 2. Build the default server.
if [[ -z "$server_cmd" ]]; then
	echo "run.sh: go build ./examples/everything" >&2
	(cd "$repo/examples/everything" && GOFLAGS=-mod=mod go build -o "$tmp/everything" .) >&2 ||
		die "building ./examples/everything failed"
	server_cmd="$tmp/everything --http {addr}"
fi

# 3. Pick a free port: one nothing listens on, below the kernel's ephemeral
# range (a port in that range, even one the kernel just handed out for port
# 0, may become the local end of an outgoing connection before the server
# binds it, which then fails with "address already in use").
ephemeral_low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
((ephemeral_low > 21000)) || die "the ephemeral port range starts at $ephemeral_low: no room below it"
for _ in $(seq 1 100); do
	port=$((20000 + RANDOM % (ephemeral_low - 20000)))
	(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
done
addr="127.0.0.1:$port"

if [[ "$server_cmd" == *"{addr}"* || "$server_cmd" == *"{port}"* ]]; then
	server_cmd="${server_cmd//\{addr\}/$addr}"
	server_cmd="${server_cmd//\{port\}/$port}"
else
	server_cmd="$server_cmd --http $addr"
fi

# 4. Start the server in its own process group and wait (<= 10 s) for the port.
server_log="$tmp/server.log"
echo "run.sh: starting server: $server_cmd" >&2
setsid bash -c "exec $server_cmd" </dev/null >"$server_log" 2>&1 &
server_pid=$!

ready=0
for _ in $(seq 1 100); do
	if ! kill -0 "$server_pid" 2>/dev/null; then
		echo "run.sh: server exited before listening; its output:" >&2
		cat "$server_log" >&2
		exit 2
	fi
	if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
		ready=1
		break
	fi
	sleep 0.1
done
if ((!ready)); then
	echo "run.sh: server did not accept connections on $addr within 10 s; its output:" >&2
	cat "$server_log" >&2
	exit 2
fi

# 5. Run the suite.
if [[ -n "$keep_results" ]]; then
	mkdir -p "$keep_results"
	results="$(cd "$keep_results" && pwd)"
else
	results="$tmp/results"
fi
url="http://$addr$url_path"
status=0
if ((${#scenarios[@]})); then
	for scenario in "${scenarios[@]}"; do
		echo "run.sh: conformance server --url $url --scenario $scenario" >&2
		"$node22" "$suite" server --url "$url" --scenario "$scenario" \
			-o "$results/$scenario" ${extra[@]+"${extra[@]}"} || status=$?
		# A scenario run by name must pass every check: a SKIPPED check (the
		# server stopped declaring the extension, say) is not a pass.
		all_checks_pass "$results/$scenario" "$scenario" || status=1
	done
else
	echo "run.sh: conformance server --url $url --requirements $requirements" >&2
	"$node22" "$suite" server --url "$url" --requirements "$requirements" -o "$results" \
		${extra[@]+"${extra[@]}"} || status=$?
	no_check_failed "$results" || status=1
fi

if ((verbose)) || ! kill -0 "$server_pid" 2>/dev/null; then
	kill -0 "$server_pid" 2>/dev/null || echo "run.sh: the server exited during the run" >&2
	echo "run.sh: server output:" >&2
	cat "$server_log" >&2
fi
[[ -n "$keep_results" ]] && echo "run.sh: results kept in $results" >&2
echo "run.sh: suite exit status $status" >&2
exit "$status"

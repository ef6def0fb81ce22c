#!/bin/bash
# icount.sh TESTBIN BENCH [N]: instructions per op of a Go benchmark under
# callgrind (valgrind), the difference of a run of N and one of 2N
# iterations divided by N, so the set-up cancels out. GOGC=off keeps the
# collector's timing-dependent work out (allocations are in -benchmem's
# figures), GOMAXPROCS=1 and asyncpreemptoff make the count repeatable
# (±0.3 % between runs of one binary here), whatever the machine's load.
#   go test -c -o /tmp/x.test ./internal/peers/mcpgenpeer && scripts/icount.sh /tmp/x.test 'InProcess$' 10000
set -euo pipefail
bin=$1 bench=$2 n=${3:-20000}
count() {
	GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$bin" -test.run '^$' -test.bench "$bench" -test.benchtime "${1}x" 2>&1 | sed -n 's/.*Collected : //p'
}
a=$(count "$n")
b=$(count $((2 * n)))
echo "$(((b - a) / n)) instructions/op ($bin $bench)"

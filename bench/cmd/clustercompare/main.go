// Command clustercompare measures what a cluster backend adds, against the
// embedded default in the same run: it runs clustertest.Bench (the
// BenchmarkCluster of ../cluster/natscluster, nats-server in process, and
// ../cluster/rediscluster, Debian's redis-server on a unix socket) for a
// number of rounds, one `go test -count 1` per backend and round, so the
// embedded and cluster sub-benchmarks alternate. It prints per backend the
// cluster/embedded ratio of a plain tools/call and of a task created on one
// replica and polled to completion on another (median and per-round range),
// and the list_changed fan-out latency between replicas.
//
//	go run ./cmd/clustercompare                 # 3 rounds, 300 ops per sub-benchmark
//	go run ./cmd/clustercompare -quick          # 2 rounds, 50 ops
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

func main() {
	rounds := flag.Int("rounds", 3, "interleaved rounds")
	ops := flag.Int("ops", 300, "operations per sub-benchmark (-benchtime Nx)")
	quick := flag.Bool("quick", false, "2 rounds of 50 operations")
	dir := flag.String("dir", "..", "repository root (holds cluster/)")
	flag.Parse()
	if *quick {
		*rounds, *ops = 2, 50
	}
	if err := run(*dir, *rounds, *ops); err != nil {
		fmt.Fprintln(os.Stderr, "clustercompare:", err)
		os.Exit(1)
	}
}

// figures are one sub-benchmark's ns/op per round.
type figures map[string][]float64

func run(root string, rounds, ops int) error {
	backends := []string{"natscluster", "rediscluster"}
	got := map[string]figures{}
	for r := 1; r <= rounds; r++ {
		for _, b := range backends {
			res, err := bench(filepath.Join(root, "cluster", b), ops)
			if err != nil {
				return fmt.Errorf("%s: %w", b, err)
			}
			if got[b] == nil {
				got[b] = figures{}
			}
			for name, ns := range res {
				got[b][name] = append(got[b][name], ns)
			}
			fmt.Fprintf(os.Stderr, "round %d/%d %s done\n", r, rounds, b)
		}
	}
	fmt.Printf("cluster overhead (clustertest.Bench, %d interleaved rounds of %d ops; ratio = cluster / embedded, median and per-round range)\n", rounds, ops)
	for _, b := range backends {
		f := got[b]
		fmt.Printf("%-13s tools/call %s   task %s   list_changed fan-out %s\n", b,
			ratio(f["ToolCall/cluster"], f["ToolCall/embedded"]), ratio(f["Task/cluster"], f["Task/embedded"]),
			dur(median(f["Fanout"])))
	}
	return nil
}

// bench runs BenchmarkCluster once in dir and returns ns/op per sub-benchmark.
func bench(dir string, ops int) (map[string]float64, error) {
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", "^BenchmarkCluster$", "-benchtime", strconv.Itoa(ops)+"x", "-count", "1", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, out)
	}
	res := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "BenchmarkCluster/") || f[3] != "ns/op" {
			continue
		}
		name := strings.TrimPrefix(f[0], "BenchmarkCluster/")
		if i := strings.LastIndexByte(name, '-'); i > 0 { // the GOMAXPROCS suffix
			name = name[:i]
		}
		ns, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", sc.Text(), err)
		}
		res[name] = ns
	}
	if len(res) == 0 {
		return nil, fmt.Errorf("no BenchmarkCluster results in:\n%s", out)
	}
	return res, nil
}

func ratio(xs, base []float64) string {
	if len(xs) == 0 || len(base) == 0 {
		return "-"
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range min(len(xs), len(base)) {
		r := xs[i] / base[i]
		lo, hi = min(lo, r), max(hi, r)
	}
	return fmt.Sprintf("%s vs %s (%.2f×, %.2f–%.2f)", dur(median(xs)), dur(median(base)), median(xs)/median(base), lo, hi)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

func dur(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2fms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1fµs", ns/1e3)
	}
	return fmt.Sprintf("%.0fns", ns)
}

// Command bindscale measures how `mcpgen tools` and the compile of the
// generated bindings grow with the number of tools. For each N it writes a
// module with one package of N typed tools (each with its own argument and
// result struct, so every server.NewTool instantiation has its own shape),
// then times, as separate processes:
//
//   - build-user: `go build` of the package before any bindings exist (the
//     user's code alone, for reference);
//   - tools-first: `mcpgen tools` with no mcp_gen.go;
//   - build-bound: `go build` of the package with its mcp_gen.go;
//   - tools-rerun: `mcpgen tools` after one tool's doc comment changed (the
//     stale mcp_gen.go present);
//   - tools-check: `mcpgen tools --check` on the up-to-date package.
//
// Every step compiles the package itself cold and its dependencies from the
// warm build cache: a fresh nonce.go before every step gives the package a
// new action ID, so neither a build nor the compile `mcpgen tools` runs for
// the package's export data (go list -export) is a cache hit, while the
// runtime and the standard library (compiled once, before the first round)
// are. Each
// step reports wall time, CPU time (user+sys of the process and its waited
// children: go list, compile, link) and peak RSS of the largest process of
// the tree (wait4's ru_maxrss, what /usr/bin/time -v prints), the median
// over -rounds rounds with the min–max spread of wall and CPU; the last
// table is the growth of each median per 10× N.
//
//	cd bench && go run ./cmd/bindscale                 # N = 100, 1000, 10000; 3 rounds
//	go run ./cmd/bindscale -n 100,1000 -rounds 1
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

var steps = []string{"build-user", "tools-first", "build-bound", "tools-rerun", "tools-check"}

// sample is one timed process.
type sample struct {
	wall, cpu time.Duration
	rssKB     int64
}

func main() {
	ns := flag.String("n", "100,1000,10000", "comma-separated tool counts")
	rounds := flag.Int("rounds", 3, "rounds per tool count")
	keep := flag.Bool("keep", false, "keep the generated modules (their folder is printed)")
	flag.Parse()
	if err := run(*ns, *rounds, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "bindscale:", err)
		os.Exit(1)
	}
}

func run(nsFlag string, rounds int, keep bool) error {
	var counts []int
	for _, s := range strings.Split(nsFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("-n: bad count %q", s)
		}
		counts = append(counts, n)
	}
	root, err := repoRoot()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "bindscale-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("modules in", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	mcpgen := filepath.Join(tmp, "mcpgen")
	if out, err := command(root, "go", "build", "-o", mcpgen, "./cmd/mcpgen").CombinedOutput(); err != nil {
		return fmt.Errorf("building mcpgen: %v\n%s", err, out)
	}
	results := map[int]map[string][]sample{}
	for _, n := range counts {
		dir := filepath.Join(tmp, fmt.Sprintf("many%d", n))
		if err := writeModule(dir, root, n); err != nil {
			return err
		}
		results[n] = map[string][]sample{}
		for r := range rounds {
			if err := round(dir, mcpgen, n, r, results[n]); err != nil {
				return fmt.Errorf("%d tools, round %d: %w", n, r+1, err)
			}
			fmt.Fprintf(os.Stderr, "N=%d round %d done\n", n, r+1)
		}
	}
	report(counts, results)
	return nil
}

// repoRoot is the folder of the core module (bench's replace target).
func repoRoot() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/mcpgen/mcpgen").Output()
	if err != nil {
		return "", fmt.Errorf("finding the mcpgen module (run from bench/): %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// writeModule writes a module requiring the local mcpgen with one package
// of n tools, resolves its go.sum and compiles its dependencies once.
func writeModule(dir, root string, n int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	gomod := "module example.com/many\n\ngo 1.26.0\n\nrequire github.com/mcpgen/mcpgen v0.0.0\n\nreplace github.com/mcpgen/mcpgen => " + root + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	files := map[string][]byte{"go.mod": []byte(gomod), "go.sum": sum, "tools.go": toolsSource(n, ""), "nonce.go": nonce("setup")}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			return err
		}
	}
	for _, args := range [][]string{{"mod", "tidy"}, {"build", "-o", os.DevNull, "github.com/mcpgen/mcpgen/server", "."}} {
		if out, err := command(dir, "go", args...).CombinedOutput(); err != nil {
			return fmt.Errorf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
		}
	}
	return nil
}

// toolsSource is a package of n tools; edit changes tool 0's description.
func toolsSource(n int, edit string) []byte {
	var b bytes.Buffer
	b.WriteString("package many\n\nimport (\n\t\"context\"\n\n\t\"github.com/mcpgen/mcpgen/server\"\n)\n\n// Service holds the tools.\ntype Service struct{}\n\nvar _ server.Options\n")
	for i := range n {
		desc := fmt.Sprintf("Tool%d looks up report number %d.", i, i)
		if i == 0 && edit != "" {
			desc += " " + edit
		}
		fmt.Fprintf(&b, `
// Args%[1]d are the arguments of Tool%[1]d.
type Args%[1]d struct {
	Location string `+"`json:\"location\" jsonschema:\"required,description=Where to look\"`"+`
	Units    string `+"`json:\"units,omitempty\" jsonschema:\"enum=metric,enum=imperial\"`"+`
	Days%[1]d    int    `+"`json:\"days%[1]d,omitempty\" jsonschema:\"minimum=1,maximum=16\"`"+`
}

// Report%[1]d is the result of Tool%[1]d.
type Report%[1]d struct {
	Temp    float64 `+"`json:\"temp\"`"+`
	Summary string  `+"`json:\"summary%[1]d\"`"+`
}

// %[2]s
//
//mcp:tool title="Tool %[1]d" readOnly
func (s *Service) Tool%[1]d(ctx context.Context, in Args%[1]d) (Report%[1]d, error) {
	return Report%[1]d{Summary: in.Location}, nil
}
`, i, desc)
	}
	return b.Bytes()
}

// nonce is a file whose only job is to give the package a new build action
// ID, so the next go build compiles it instead of reusing the cache.
func nonce(s string) []byte {
	return []byte("package many\n\nconst buildNonce = " + strconv.Quote(s) + "\n")
}

// round runs every step once.
func round(dir, mcpgen string, n, r int, res map[string][]sample) error {
	gen := filepath.Join(dir, "mcp_gen.go")
	if err := os.Remove(gen); err != nil && !os.IsNotExist(err) {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "tools.go"), toolsSource(n, ""), 0o644); err != nil {
		return err
	}
	stamp := fmt.Sprintf("%d-%d-%d", n, r, time.Now().UnixNano())
	// step runs one timed step after a fresh nonce, so that neither a build
	// nor the load's compile of the package (go list -export) is a cache hit.
	step := func(name string, args ...string) error {
		if err := os.WriteFile(filepath.Join(dir, "nonce.go"), nonce(name+stamp), 0o644); err != nil {
			return err
		}
		return timed(res, name, command(dir, args[0], args[1:]...))
	}
	build := func(name string) error { return step(name, "go", "build", "-o", os.DevNull, ".") }
	if err := build("build-user"); err != nil {
		return err
	}
	if err := step("tools-first", mcpgen, "tools"); err != nil {
		return err
	}
	if _, err := os.Stat(gen); err != nil {
		return fmt.Errorf("mcpgen tools wrote no mcp_gen.go: %v", err)
	}
	if err := build("build-bound"); err != nil {
		return err
	}
	before, err := os.ReadFile(gen)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "tools.go"), toolsSource(n, "Edited in round "+strconv.Itoa(r+1)+"."), 0o644); err != nil {
		return err
	}
	if err := step("tools-rerun", mcpgen, "tools"); err != nil {
		return err
	}
	after, err := os.ReadFile(gen)
	if err != nil {
		return err
	}
	if bytes.Equal(before, after) {
		return fmt.Errorf("the re-run did not rewrite mcp_gen.go after the edit")
	}
	return step("tools-check", mcpgen, "tools", "--check")
}

func command(dir, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	return cmd
}

// timed runs cmd to completion and records its wall time, CPU and peak RSS.
func timed(res map[string][]sample, step string, cmd *exec.Cmd) error {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return fmt.Errorf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out.Bytes())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return fmt.Errorf("no rusage on this platform")
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	res[step] = append(res[step], sample{wall: wall, cpu: cpu, rssKB: ru.Maxrss})
	return nil
}

// report prints one markdown table of medians and one of growth per 10×.
func report(counts []int, results map[int]map[string][]sample) {
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("\nload average at the end: %s\n", strings.Join(strings.Fields(string(load))[:3], " "))
	fmt.Println("| N | step | wall (median, min–max) | CPU (median, min–max) | peak RSS (median) |")
	fmt.Println("|---|---|---|---|---|")
	for _, n := range counts {
		for _, step := range steps {
			s := results[n][step]
			w, c, m := stats(s, func(x sample) float64 { return x.wall.Seconds() }), stats(s, func(x sample) float64 { return x.cpu.Seconds() }), stats(s, func(x sample) float64 { return float64(x.rssKB) / 1024 })
			fmt.Printf("| %d | %s | %.2f s (%.2f–%.2f) | %.2f s (%.2f–%.2f) | %.0f MB |\n", n, step, w[1], w[0], w[2], c[1], c[0], c[2], m[1])
		}
	}
	fmt.Println("\ngrowth of the medians from one N to the next (linear at 10× N is about 10×):")
	fmt.Println("| step | N → N' | wall | CPU | peak RSS |")
	fmt.Println("|---|---|---|---|---|")
	for i := 1; i < len(counts); i++ {
		a, b := results[counts[i-1]], results[counts[i]]
		for _, step := range steps {
			ratio := func(f func(sample) float64) float64 { return stats(b[step], f)[1] / stats(a[step], f)[1] }
			fmt.Printf("| %s | %d → %d | %.1f× | %.1f× | %.1f× |\n", step, counts[i-1], counts[i],
				ratio(func(x sample) float64 { return x.wall.Seconds() }), ratio(func(x sample) float64 { return x.cpu.Seconds() }), ratio(func(x sample) float64 { return float64(x.rssKB) }))
		}
	}
}

// stats is the min, median and max of f over s.
func stats(s []sample, f func(sample) float64) [3]float64 {
	v := make([]float64, len(s))
	for i, x := range s {
		v[i] = f(x)
	}
	slices.Sort(v)
	if len(v) == 0 {
		return [3]float64{}
	}
	return [3]float64{v[0], v[len(v)/2], v[len(v)-1]}
}

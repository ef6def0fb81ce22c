// Command clientcompare benchmarks the mcpgen Go client against the go-sdk
// v1.8.0 and mcp-go v1.2.1 clients on the same server: the mcpgen weather
// server (bench's mcpgen peer), over Streamable HTTP (httptest on
// 127.0.0.1) and over stdio (in-process pipes to Server.ServeStdio). Each
// round measures every client once with testing.Benchmark, interleaved, so
// all see the same machine; the report is each client's median ns/op and
// allocations per call, and the ratio to go-sdk's with its spread (the
// lowest and highest ratio of one round's figures).
//
//	go run ./cmd/clientcompare              # 5 rounds, 1 s each
//	go run ./cmd/clientcompare -quick       # 3 rounds, 200 ms each
//	go run ./cmd/clientcompare -rounds 9
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http/httptest"
	"os"
	"sort"
	"testing"
	"time"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/peers/mcpgenpeer"
	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

const wantText = "Paris: 21.50 (metric)"

// caller makes one tools/call and returns its text.
type caller func(ctx context.Context) (string, error)

type subject struct {
	name  string
	setup func(kind string) (caller, func(), error)
}

func main() {
	rounds := flag.Int("rounds", 5, "interleaved rounds")
	quick := flag.Bool("quick", false, "3 rounds of 200 ms")
	benchTime := flag.Duration("benchtime", time.Second, "testing.Benchmark time per client and round")
	testing.Init()
	flag.Parse()
	if *quick {
		*rounds, *benchTime = 3, 200*time.Millisecond
	}
	if err := flag.Set("test.benchtime", benchTime.String()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	subjects := []subject{{"mcpgen", mcpgenClient}, {"go-sdk", goSDKClient}, {"mcp-go", mcpGoClient}}
	for _, kind := range []string{"http", "stdio"} {
		ns := map[string][]float64{}
		allocs := map[string][]float64{}
		for r := 0; r < *rounds; r++ {
			for _, s := range subjects {
				call, stop, err := s.setup(kind)
				if err != nil {
					fmt.Fprintf(os.Stderr, "%s %s: %v\n", s.name, kind, err)
					os.Exit(1)
				}
				if text, err := call(context.Background()); err != nil || text != wantText {
					fmt.Fprintf(os.Stderr, "%s %s: first call = %q, %v; want %q\n", s.name, kind, text, err, wantText)
					os.Exit(1)
				}
				var failed error
				res := testing.Benchmark(func(b *testing.B) {
					b.ReportAllocs()
					ctx := context.Background()
					for b.Loop() {
						if _, err := call(ctx); err != nil {
							failed = err
							b.FailNow()
						}
					}
				})
				stop()
				if failed != nil {
					fmt.Fprintf(os.Stderr, "%s %s: %v\n", s.name, kind, failed)
					os.Exit(1)
				}
				ns[s.name] = append(ns[s.name], float64(res.NsPerOp()))
				allocs[s.name] = append(allocs[s.name], float64(res.AllocsPerOp()))
			}
		}
		fmt.Printf("%-5s", kind)
		for _, s := range subjects {
			lo, hi := spread(ns[s.name], ns["go-sdk"])
			fmt.Printf("   %s %8.0f ns/op %5.0f allocs/op (%.2f×, %.2f–%.2f)", s.name, median(ns[s.name]), median(allocs[s.name]),
				median(ns[s.name])/median(ns["go-sdk"]), lo, hi)
		}
		fmt.Println()
	}
}

// spread is the lowest and highest per-round ratio xs[i]/base[i].
func spread(xs, base []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := range min(len(xs), len(base)) {
		r := xs[i] / base[i]
		lo, hi = min(lo, r), max(hi, r)
	}
	return lo, hi
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// serve starts the mcpgen weather server for kind and returns how to reach
// it: a URL, or the client ends of a stdio pipe pair.
func serve(kind string) (url string, r io.ReadCloser, w io.WriteCloser, stop func(), err error) {
	srv, err := mcpgenpeer.New()
	if err != nil {
		return "", nil, nil, nil, err
	}
	if kind == "http" {
		hs := httptest.NewServer(mcpgenpeer.Handler(srv))
		return hs.URL, nil, nil, hs.Close, nil
	}
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = srv.ServeStdio(ctx, sr, sw); sw.Close(); close(done) }()
	return "", cr, cw, func() { cw.Close(); cancel(); <-done }, nil
}

func mcpgenClient(kind string) (caller, func(), error) {
	url, r, w, stop, err := serve(kind)
	if err != nil {
		return nil, nil, err
	}
	var t client.Transport
	if kind == "http" {
		t = client.HTTP(url)
	} else {
		t = client.NewStreamTransport(r, w, 0)
	}
	c, err := client.Connect(context.Background(), t, &client.Options{ClientInfo: mcp.Implementation{Name: "bench", Version: "1"}})
	if err != nil {
		stop()
		return nil, nil, err
	}
	params := &mcp.CallToolRequestParams{Name: "weather_current", Arguments: []byte(`{"location":"Paris","units":"metric"}`)}
	call := func(ctx context.Context) (string, error) {
		out, err := c.CallTool(ctx, params)
		if err != nil {
			return "", err
		}
		res, ok := out.(*mcp.CallToolResult)
		if !ok || len(res.Content) == 0 {
			return "", fmt.Errorf("unexpected %T", out)
		}
		text, _ := res.Content[0].(*mcp.TextContent)
		if text == nil {
			return "", fmt.Errorf("no text")
		}
		return text.Text, nil
	}
	return call, func() { c.Close(); stop() }, nil
}

func goSDKClient(kind string) (caller, func(), error) {
	url, r, w, stop, err := serve(kind)
	if err != nil {
		return nil, nil, err
	}
	var t gosdk.Transport
	if kind == "http" {
		t = &gosdk.StreamableClientTransport{Endpoint: url}
	} else {
		t = &gosdk.IOTransport{Reader: r, Writer: w}
	}
	c := gosdk.NewClient(&gosdk.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), t, nil)
	if err != nil {
		stop()
		return nil, nil, err
	}
	params := &gosdk.CallToolParams{Name: "weather_current", Arguments: map[string]any{"location": "Paris", "units": "metric"}}
	call := func(ctx context.Context) (string, error) {
		res, err := cs.CallTool(ctx, params)
		if err != nil {
			return "", err
		}
		if len(res.Content) == 0 {
			return "", fmt.Errorf("no content")
		}
		text, _ := res.Content[0].(*gosdk.TextContent)
		if text == nil {
			return "", fmt.Errorf("no text")
		}
		return text.Text, nil
	}
	return call, func() { cs.Close(); stop() }, nil
}

func mcpGoClient(kind string) (caller, func(), error) {
	url, r, w, stop, err := serve(kind)
	if err != nil {
		return nil, nil, err
	}
	var c *mcpgoclient.Client
	if kind == "http" {
		c, err = mcpgoclient.NewStreamableHttpClient(url)
	} else {
		c = mcpgoclient.NewClient(mcpgotransport.NewIO(r, w, nil))
	}
	if err == nil {
		err = c.Start(context.Background())
	}
	if err == nil {
		var req mcpgo.InitializeRequest
		req.Params.ClientInfo = mcpgo.Implementation{Name: "bench", Version: "1"}
		_, err = c.Initialize(context.Background(), req)
	}
	if err != nil {
		stop()
		return nil, nil, err
	}
	var req mcpgo.CallToolRequest
	req.Params.Name = "weather_current"
	req.Params.Arguments = map[string]any{"location": "Paris", "units": "metric"}
	call := func(ctx context.Context) (string, error) {
		res, err := c.CallTool(ctx, req)
		if err != nil {
			return "", err
		}
		if len(res.Content) == 0 {
			return "", fmt.Errorf("no content")
		}
		text, ok := res.Content[0].(mcpgo.TextContent)
		if !ok {
			return "", fmt.Errorf("content is %T", res.Content[0])
		}
		return text.Text, nil
	}
	return call, func() { c.Close(); stop() }, nil
}

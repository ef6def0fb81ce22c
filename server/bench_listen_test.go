package server

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkListenFanout: one tools list change (AddTools) reaching 1 000
// listen streams over real loopback HTTP connections (client and server in
// this process): ns/op is the time until every stream has read its
// notifications/tools/list_changed, p50-ns the median stream's (what
// compare's listen row reports as fan-out p50), cpu-ns/op the process's
// CPU for it, allocs/op and B/op the whole process's (the client's reading
// included, the same at every commit).
func BenchmarkListenFanout(b *testing.B) {
	const streams = 1000
	s, err := New(Options{Name: "bench", Version: "1", Tools: []Tool{weatherTool()}})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(s.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: streams, MaxConnsPerHost: 0, DisableCompression: true}}
	defer client.CloseIdleConnections()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	acked, got := make(chan struct{}, streams), make(chan time.Time, streams)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	for i := range streams {
		body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}`
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "subscriptions/listen")
		wg.Go(func() {
			resp, err := client.Do(req)
			if err != nil {
				return
			}
			defer resp.Body.Close()
			r := bufio.NewReader(resp.Body)
			for {
				line, err := r.ReadSlice('\n')
				if err != nil {
					return
				}
				switch {
				case bytes.Contains(line, []byte("notifications/subscriptions/acknowledged")):
					acked <- struct{}{}
				case bytes.Contains(line, []byte("notifications/tools/list_changed")):
					got <- time.Now()
				}
			}
		})
	}
	for range streams {
		select {
		case <-acked:
		case <-time.After(time.Minute):
			b.Fatal("listen streams not all acknowledged")
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	lats := make([]time.Duration, 0, b.N*streams)
	for i := range b.N {
		tool := NewTool(ToolInfo{Name: "touched_" + strconv.Itoa(i)}, func(context.Context, struct{}) (string, error) { return "", nil })
		sent := time.Now()
		if err := s.AddTools(tool); err != nil {
			b.Fatal(err)
		}
		for range streams {
			lats = append(lats, (<-got).Sub(sent))
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
	slices.Sort(lats)
	b.ReportMetric(float64(lats[len(lats)/2]), "p50-ns")
}

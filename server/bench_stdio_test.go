package server

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"sync"
	"testing"
)

// benchCallLine is the benchmark request (bench/README.md) with id as %d.
func benchCallLine(id int) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}},"name":"weather_current","arguments":{"location":"Paris","units":"metric"}}}` + "\n")
}

// BenchmarkServeStdioPipelined measures tools/call round trips through
// ServeStdio on OS pipes with 16 requests in flight (the stdio-16 row of
// bench/ in one process): ns/op is per call, client included.
func BenchmarkServeStdioPipelined(b *testing.B) {
	for _, window := range []int{1, 16} {
		b.Run("inflight="+strconv.Itoa(window), func(b *testing.B) {
			benchStdio(b, window)
		})
	}
}

// startBenchStdio serves the benchmark tool on stdio over OS pipes and
// returns the client's ends; stop closes the input, checks that ServeStdio
// ended cleanly and closes the rest.
func startBenchStdio(b *testing.B) (in, out *os.File, stop func()) {
	s, err := New(Options{Name: "bench", Version: "1", Tools: []Tool{weatherTool()}})
	if err != nil {
		b.Fatal(err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- s.ServeStdio(context.Background(), inR, outW)
		outW.Close()
	}()
	return inW, outR, func() {
		inW.Close()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
		inR.Close()
		outR.Close()
	}
}

func benchStdio(b *testing.B, window int) {
	inW, outR, stop := startBenchStdio(b)
	tokens := make(chan struct{}, window)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // reader: every reply frees a slot
		defer wg.Done()
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for i := 0; i < b.N; i++ {
			if !sc.Scan() {
				b.Error("output ended early")
				return
			}
			if len(sc.Bytes()) == 0 || sc.Bytes()[len(sc.Bytes())-1] != '}' {
				b.Errorf("bad reply %q", sc.Bytes())
			}
			<-tokens
		}
	}()
	b.ReportAllocs()
	b.ResetTimer()
	bw := bufio.NewWriterSize(inW, 64<<10)
	for i := 0; i < b.N; i++ {
		select {
		case tokens <- struct{}{}:
		default:
			bw.Flush()
			tokens <- struct{}{}
		}
		bw.Write(benchCallLine(i + 1))
	}
	bw.Flush()
	wg.Wait()
	b.StopTimer()
	stop()
}

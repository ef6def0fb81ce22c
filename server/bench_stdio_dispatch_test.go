package server

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"
)

// stdioBatchWindow is how many request lines each read of
// BenchmarkStdioDispatch brings in: the stdio-16 row's window.
const stdioBatchWindow = 16

// repeatReader yields chunk n times, one chunk per Read, then io.EOF.
type repeatReader struct {
	chunk []byte
	n     int
	off   int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.chunk[r.off:])
	if r.off += k; r.off == len(r.chunk) {
		r.off = 0
		r.n--
	}
	return k, nil
}

// lineCounter counts the lines written to it and drops them.
type lineCounter struct{ lines int }

func (w *lineCounter) Write(p []byte) (int, error) {
	w.lines += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}

// BenchmarkStdioDispatch measures the stdio transport's work per request
// without pipes or a client: ServeStdio reads the benchmark tools/call in
// batches of stdioBatchWindow lines from memory (ids 1..16 again and again:
// each runs inline and is answered before the next) and writes the
// answers into a line counter. Nothing is promoted (stdioPromoteAfter is
// an hour here), so it is deterministic on one core and
// bench/scripts/icount.sh counts it; its count less
// BenchmarkHandleToolsCall's is what the transport adds to the call.
func BenchmarkStdioDispatch(b *testing.B) {
	s, err := New(Options{Name: "bench", Version: "1", Tools: []Tool{weatherTool()}})
	if err != nil {
		b.Fatal(err)
	}
	var chunk []byte
	for id := 1; id <= stdioBatchWindow; id++ {
		chunk = append(chunk, benchCallLine(id)...)
	}
	// No promotion: how often a timer fires is not the same from run to
	// run (bench/scripts/icount.sh counts instructions).
	promoteAfter(b, time.Hour)
	batches := (b.N + stdioBatchWindow - 1) / stdioBatchWindow
	in := &repeatReader{chunk: chunk, n: batches}
	out := &lineCounter{}
	b.ReportAllocs()
	b.ResetTimer()
	if err := s.ServeStdio(context.Background(), in, out); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if out.lines != batches*stdioBatchWindow {
		b.Fatalf("%d answers, want %d", out.lines, batches*stdioBatchWindow)
	}
}

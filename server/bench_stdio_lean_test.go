package server

import (
	"bufio"
	"bytes"
	"strconv"
	"sync/atomic"
	"testing"
)

// BenchmarkStdioPipelined drives ServeStdio on OS pipes as the bench's
// stdio-N rows do (N requests in flight, more sent as answers come back),
// with a client that costs little next to the server: it writes the
// benchmark call with increasing ids from a reused buffer and counts
// answer lines in raw reads (no scanner, no allocation per request).
// cpu-ns/op is the process's CPU (user and system, client included) per
// request, allocs/op and B/op are the server's but for the client's
// buffers. A/B runs of the stdio transport compare these (bench/README.md).
func BenchmarkStdioPipelined(b *testing.B) {
	for _, window := range []int{16, 256} {
		b.Run("inflight="+strconv.Itoa(window), func(b *testing.B) {
			benchStdioLean(b, window)
		})
	}
}

func benchStdioLean(b *testing.B, window int) {
	inW, outR, stop := startBenchStdio(b)
	line := benchCallLine(0)
	at := bytes.Index(line, []byte(`"id":0`)) + len(`"id":`)
	head, tail := line[:at], line[at+1:]
	var answered atomic.Int64
	wake := make(chan struct{}, 1)
	readDone := make(chan struct{})
	n := int64(b.N)
	go func() { // counts answers; every read wakes the sender
		defer close(readDone)
		buf := make([]byte, 64<<10)
		for answered.Load() < n {
			k, err := outR.Read(buf)
			if err != nil {
				b.Error("output ended early:", err)
				return
			}
			answered.Add(int64(bytes.Count(buf[:k], []byte{'\n'})))
			select {
			case wake <- struct{}{}:
			default:
			}
		}
	}()
	bw := bufio.NewWriterSize(inW, 64<<10)
	scratch := make([]byte, 0, len(line)+20)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cpuTime()
	for sent := int64(0); sent < n; {
		for sent < n && sent-answered.Load() < int64(window) {
			sent++
			scratch = append(strconv.AppendInt(append(scratch[:0], head...), sent, 10), tail...)
			bw.Write(scratch)
		}
		bw.Flush()
		for sent < n && sent-answered.Load() >= int64(window) {
			<-wake
		}
	}
	<-readDone
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N), "cpu-ns/op")
	b.StopTimer()
	stop()
}

package server

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestStdioLargeInFlightCapAnswers: Limits.MaxInFlightPerConn is an int
// ("caps the requests one stdio connection has in flight"); a cap above
// 2^31-1 on a 64-bit platform is a cap no connection reaches, so requests
// are answered as with any other cap. stdioSlots keeps the cap as
// int32(n): 1<<31 becomes -2147483648 and 1<<32 becomes 0, no slot is
// ever free, and the read loop waits for one for good — no request is
// answered (before a7ae685 the buffered channel of tokens took such caps).
func TestStdioLargeInFlightCapAnswers(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("caps above 2^31 need a 64-bit int")
	}
	for _, n := range []int{1 << 31, 1 << 32} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			k := limitServer(t, Limits{MaxInFlightPerConn: n})
			f := startFaultStdio(t, k.s, 0)
			answered := false
			t.Cleanup(func() {
				if answered {
					return
				}
				// The loop is stuck in the slot wait: a shutdown wakes it,
				// so that it ends before the next test runs.
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				defer cancel()
				k.s.Shutdown(ctx)
				f.inW.Close()
				select {
				case <-f.done:
				case <-time.After(3 * time.Second):
				}
			})
			f.send(faultCall("1", "weather_current", `{"location":"Paris","units":"metric"}`, defaultMeta))
			select {
			case line := <-f.out:
				if !strings.Contains(line, `"temperature":21.5`) {
					t.Fatalf("reply %s, want the weather", line)
				}
			case <-time.After(2 * time.Second):
				t.Fatal("no reply within 2 s: the read loop waits for an in-flight slot that is never free")
			}
			answered = true
			if err, _, _ := f.closeIn(3 * time.Second); err != nil {
				t.Fatalf("ServeStdio: %v", err)
			}
		})
	}
}

// TestStdioMaxIntInFlightCapAnswers: MaxInFlightPerConn set to
// math.MaxInt (a cap no connection reaches, as one may write "no
// practical limit") must not panic: serveStdio makes the waiting channel
// with MaxInFlightPerConn*waitingPerSlot, which overflows to a negative
// size, and make panics ("makechan: size out of range") before a line is
// read — in a real server a crash of the process. (Also on b2ee1b9.)
func TestStdioMaxIntInFlightCapAnswers(t *testing.T) {
	k := limitServer(t, Limits{MaxInFlightPerConn: math.MaxInt})
	in := strings.NewReader(faultCall("1", "weather_current", `{"location":"Paris","units":"metric"}`, defaultMeta) + "\n")
	var out strings.Builder
	type result struct {
		err   error
		panic any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{panic: p}
			}
		}()
		done <- result{err: k.s.serveStdio(context.Background(), in, &out, 0)}
	}()
	select {
	case r := <-done:
		if r.panic != nil {
			t.Fatalf("serveStdio panicked: %v", r.panic)
		}
		if r.err != nil {
			t.Fatalf("serveStdio: %v", r.err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("serveStdio did not return within 2 s of the input's end")
	}
	if !strings.Contains(out.String(), `"temperature":21.5`) {
		t.Fatalf("output %q, want the weather answer", out.String())
	}
}

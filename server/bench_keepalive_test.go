package server

import (
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkIdleKeepAlives: the process CPU of 10 000 idle streams whose
// streams are due for keep-alives every 100 ms, for 1 s of wall time per
// op (reported as cpu-ms/s): one ticker per stream (as first), the shared
// set kicking each stream's goroutine (as next), and the shared loop
// calling each stream's send itself (as now). The comment write itself is
// left out (the same in all three).
func BenchmarkIdleKeepAlives(b *testing.B) {
	const streams, every = 10000, 100 * time.Millisecond
	run := func(b *testing.B, wait func(stop chan struct{}, wg *sync.WaitGroup)) {
		var cpu time.Duration
		for range b.N {
			stop := make(chan struct{})
			var wg sync.WaitGroup
			for range streams {
				wg.Add(1)
				go wait(stop, &wg)
			}
			time.Sleep(200 * time.Millisecond) // all waiting
			c0 := cpuTime()
			time.Sleep(time.Second)
			cpu += cpuTime() - c0
			close(stop)
			wg.Wait()
		}
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/s")
	}
	b.Run("ticker-per-stream", func(b *testing.B) {
		run(b, func(stop chan struct{}, wg *sync.WaitGroup) {
			defer wg.Done()
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
				}
			}
		})
	})
	b.Run("shared-kicked", func(b *testing.B) {
		run(b, func(stop chan struct{}, wg *sync.WaitGroup) {
			defer wg.Done()
			kick := make(chan struct{}, 1)
			ka := keepAliveEvery(every).join(func() {
				select {
				case kick <- struct{}{}:
				default:
				}
			})
			defer ka.leave()
			for {
				select {
				case <-stop:
					return
				case <-kick:
				}
			}
		})
	})
	b.Run("shared-loop", func(b *testing.B) {
		run(b, func(stop chan struct{}, wg *sync.WaitGroup) {
			defer wg.Done()
			var sent atomic.Int64
			ka := keepAliveEvery(every).join(func() { sent.Add(1) })
			defer ka.leave()
			<-stop
		})
	})
}

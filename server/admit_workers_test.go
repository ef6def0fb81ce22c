package server

import (
	"testing"
	"time"
)

// A worker that finished a job takes the next one (no new goroutine) and
// retires after handlerWorkerIdle without one.
func TestWorkerPoolReusesAndRetires(t *testing.T) {
	// Parked workers wait 3 s here (a second in production): the test must
	// see each one parked before it retires, on a loaded machine too.
	p := workerPool{jobs: make(chan func()), idleFor: 3 * time.Second}
	ran := make(chan int)
	waitIdle := func(n int32, within time.Duration) {
		t.Helper()
		for deadline := time.Now().Add(within); p.idle.Load() != n; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d workers parked after %v, want %d", p.idle.Load(), within, n)
			}
		}
	}
	// handOff gives job to the parked worker. A worker counts itself idle
	// just before it waits on jobs, so p.run right after waitIdle may find
	// no receiver yet and start a goroutine: the test hands off with a
	// blocking send instead, which only a parked worker can take.
	handOff := func(job func()) {
		t.Helper()
		select {
		case p.jobs <- job:
		case <-time.After(2 * time.Second):
			t.Fatal("no parked worker took a job within 2s")
		}
	}
	p.run(func() { ran <- 0 })
	if got := <-ran; got != 0 {
		t.Fatalf("job 0 ran as %d", got)
	}
	waitIdle(1, 2*time.Second)
	for i := 1; i < 3; i++ {
		handOff(func() { ran <- i })
		if got := <-ran; got != i {
			t.Fatalf("job %d ran as %d", i, got)
		}
		waitIdle(1, 2*time.Second)
	}
	if n := p.started.Load(); n != 1 {
		t.Errorf("3 jobs one after another started %d workers, want 1", n)
	}
	// Two at once: the parked worker takes one, a new one the other.
	release := make(chan struct{})
	handOff(func() { <-release })
	p.run(func() { <-release }) // none parked now: a new worker
	close(release)
	waitIdle(2, 2*time.Second)
	if n := p.started.Load(); n != 2 {
		t.Errorf("two concurrent jobs: %d workers started in all, want 2", n)
	}
	waitIdle(0, p.idleFor+5*time.Second)
}

package server

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Listen streams parked on their wake channel while changes are fanned
// out end every way a stream ends, none missed: half are cancelled (the
// client went away) while changes keep coming, the rest are ended by a
// Shutdown that begins during the fan-out. Every handler returns and the
// set of streams is empty.
func TestListenStreamsEndUnderFanOut(t *testing.T) {
	for round := range 5 {
		f := newFixture(t)
		const n = 24
		runs := make([]*listenRun, n)
		for i := range runs {
			runs[i] = startListen(t, f.s, strconv.Itoa(i+1), `{"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["test://static-text"]}`)
			runs[i].next(t)
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				f.s.subs.publish(changeTools, "")
				f.s.subs.publish(changePrompts, "")
				f.s.ResourceUpdated("test://static-text")
			}
		}()
		for _, r := range runs {
			go func() { // drain what they are sent
				for {
					select {
					case <-r.w.ch:
					case <-stop:
						return
					}
				}
			}()
		}
		for i := 0; i < n; i += 2 {
			runs[i].stop()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		err := f.s.Shutdown(ctx)
		cancel()
		close(stop)
		wg.Wait()
		if err != nil {
			t.Fatalf("round %d: Shutdown: %v", round, err)
		}
		for i, r := range runs {
			select {
			case <-r.done:
			case <-time.After(3 * time.Second):
				t.Fatalf("round %d: stream %d still open", round, i+1)
			}
		}
		f.s.subs.mu.Lock()
		left := len(f.s.subs.set)
		f.s.subs.mu.Unlock()
		if left != 0 {
			t.Fatalf("round %d: %d streams still subscribed", round, left)
		}
	}
}

package server

import (
	"runtime"
	"runtime/metrics"
	"sync/atomic"
)

// largeMessage is the size of a request's params and answer from which its
// end asks for a garbage collection (collectAfterLarge).
const largeMessage = 4 << 20

// collecting is set while a goroutine runs collections for large
// requests; again asks it for one more cycle (requests that end while it
// collects ask for one more, not one each). No goroutine stays behind: a
// library's permanent goroutine would fail its users' leak checks.
var collecting, again atomic.Bool

// collectAfterLarge asks for a garbage collection once a request whose
// params and answer had n bytes has been served, when n is at least
// largeMessage and worthCollecting says so (a cycle costs about the live
// heap, so one costs at most about sixteen times the message's bytes,
// which a request's parse, validation and decoding cost several times over
// already). before is liveBefore(len(params)), taken as the request began.
//
// The collector's heap goal is twice the heap it found live at its last
// cycle. A cycle that falls while a large request is being served finds
// its message, tape and decoded arguments live and lets the heap grow to
// twice that before the next one: the next large request's copies are
// then built while the last one's are still garbage, and peak memory is
// about two requests' worth. The cycle asked for here finds the request's
// garbage dead and sets the goal from what the process really holds
// (measured, bench/README.md "Large payloads in about two copies": peak RSS
// of 10 MB nested arguments on stdio 122 → 77 MiB, of a 10 MB tool result
// 97 → 65–76 MiB). It runs on a goroutine of its own,
// which ends with the cycle: the request's answer does not wait for it.
// A cycle of the collector's own that is still running then (begun while
// the request held its memory, which it counts live) runs to its end
// first: runtime.GC waits for it, then runs the cycle asked for.
func collectAfterLarge(n int, before uint64) {
	if n < largeMessage {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if !worthCollecting(n, before, sampleUint(s[0]), sampleUint(s[1]), sampleUint(s[2])) {
		return
	}
	if !collecting.CompareAndSwap(false, true) {
		again.Store(true)
		return
	}
	go func() {
		for {
			runtime.GC()
			if !again.Swap(false) {
				break
			}
		}
		// A request ending between the Swap and this Store asks for a
		// cycle that does not run: the next large request asks again.
		collecting.Store(false)
	}()
}

// notSampled is liveBefore's answer for a request whose params are under
// largeMessage: no cycle's figure is compared with it.
const notSampled = ^uint64(0)

// liveBefore is the heap the collector's last cycle found live, read as a
// request whose params have n bytes begins, when n is at least
// largeMessage; otherwise notSampled (small requests read no metric).
func liveBefore(n int) uint64 {
	if n < largeMessage {
		return notSampled
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return sampleUint(s[0])
}

// worthCollecting reports whether a cycle is worth running after a
// request of n bytes (at least largeMessage), given the heap found live by
// the last cycle before the request began (before) and by the last one
// now (live), the collector's goal and the heap's objects now (garbage
// included). The request must be at least a sixteenth of the live heap,
// and then either
//
//   - a cycle during the request found at least half its bytes more live
//     than before it: the goal was set from the request's own memory,
//     which is garbage now, and lets the next request build beside it
//     (nested-10m-http: a cycle at 26 MB live mid-request sets a goal of
//     52 MB, which the request itself fills; the collector's cycle that
//     then starts before the request ends finds 46 MB live and sets a goal
//     of 92 MB, reached by the next request); or
//   - the heap has more than n bytes of room under the goal. With less
//     room, and no cycle during the request that counted it, the next
//     request of that size reaches the goal early on and the collector's
//     own cycle finds this request's garbage dead; a cycle forced then
//     lowers no peak, and the memory it lets the runtime give back is
//     faulted in again by the next request (measured on resources/read of
//     10 MB, whose cycles find the same live heap before and during a
//     read: 1.5× the CPU per request, the same peak RSS).
func worthCollecting(n int, before, live, goal, objects uint64) bool {
	if uint64(n) < live/16 {
		return false
	}
	if before != notSampled && live > before && live-before >= uint64(n)/2 {
		return true
	}
	return goal > objects && goal-objects > uint64(n)
}

func sampleUint(s metrics.Sample) uint64 {
	if s.Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s.Value.Uint64()
}

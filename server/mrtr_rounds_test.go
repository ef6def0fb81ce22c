package server

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// TestMRTRRoundsConcurrent: the multi round-trip state is made the first
// time one of its fields is set (request.roundsFor), by whichever goroutine
// gets there first; Ask, SetState and ClientCapabilities called at once
// from goroutines of one handler all land in the same state (run with
// -race). The round answers with every key asked and the state set.
func TestMRTRRoundsConcurrent(t *testing.T) {
	const asks = 8
	tool := NewTool(ToolInfo{Name: "ask_many", Description: "Asks from goroutines"}, func(ctx context.Context, in noArgs) (string, error) {
		var wg sync.WaitGroup
		start := make(chan struct{}) // all begin at once
		for i := range asks {
			wg.Add(3)
			go func() {
				defer wg.Done()
				<-start
				Ask(ctx, fmt.Sprintf("k%d", i), elicitName("name?"))
			}()
			go func() {
				defer wg.Done()
				<-start
				SetState(ctx, []byte(`{"round":1}`))
			}()
			go func() {
				defer wg.Done()
				<-start
				if ClientCapabilities(ctx).Elicitation == nil {
					t.Error("capabilities without elicitation")
				}
			}()
		}
		close(start)
		wg.Wait()
		return "", &InputRequiredError{}
	})
	for range 200 {
		f := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, tool) })
		reqs, state := inputRequests(t, callTool(t, f.s, "ask_many", ""))
		if len(reqs) != asks || state == "" {
			t.Fatalf("%d input requests, state %q: want %d and a state", len(reqs), state, asks)
		}
	}
}

// TestRoundsForOnce: goroutines asking one request for its multi
// round-trip state at once all get the same one.
func TestRoundsForOnce(t *testing.T) {
	for range 2000 {
		r := &request{}
		start := make(chan struct{})
		got := make([]*mrtrRounds, 4)
		var wg sync.WaitGroup
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				got[i] = r.roundsFor()
			}()
		}
		close(start)
		wg.Wait()
		for _, x := range got {
			if x != got[0] || x != r.rounds() {
				t.Fatal("two multi round-trip states for one request")
			}
		}
	}
}

package driver

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The workload calls of the newer rows, against the built servers.
var (
	touchCall   = Call{Tool: "touch_tools", Arguments: []byte(`{}`), Expected: "touched"}
	confirmCall = Call{Tool: "confirm_nested", Arguments: []byte(`{"items":[{"name":"a","value":1,"tags":["x"]},{"name":"b","value":2,"tags":[]}]}`),
		Expected: "items=2", MultiRound: true, AnswerKey: "confirm"}
	stringCall = Call{Tool: "echo_string", Arguments: []byte(`{"data":"` + strings.Repeat("x", 3000) + `"}`), Expected: "len=3000"}
)

func TestListenFanOutEveryServer(t *testing.T) {
	for _, name := range []string{"mcpgen", "go-sdk", "mcp-go"} {
		r, err := RunListen(server(t, name, Modern), touchCall, ListenOptions{Streams: 20, Idle: 50 * time.Millisecond, Triggers: 2, Timeout: 20 * time.Second})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.FanoutP50 <= 0 || r.FanoutP99 < r.FanoutP50 || r.PeakRSSKiB <= 0 {
			t.Errorf("%s: implausible %+v", name, r)
		}
	}
}

func TestMultiRoundAndSequenceEveryServer(t *testing.T) {
	opt := LoadOptions{Concurrency: 1, Warmup: 10 * time.Millisecond, Duration: 30 * time.Millisecond, MinRequests: 2, Timeout: 20 * time.Second, Sequential: true}
	for _, name := range []string{"mcpgen", "go-sdk", "mcp-go"} {
		for _, c := range []Call{confirmCall, stringCall} {
			for kind, run := range map[string]func(Server, Call, LoadOptions) (LoadResult, error){"stdio": RunStdio, "http": RunHTTP} {
				r, err := run(server(t, name, Modern), c, opt)
				if err != nil {
					t.Fatalf("%s %s %s: %v", name, kind, c.Tool, err)
				}
				if r.Requests < 2 || r.P50 <= 0 || r.PeakRSSKiB <= 0 {
					t.Errorf("%s %s %s: implausible %+v", name, kind, c.Tool, r)
				}
			}
		}
	}
}

func TestMultiRoundNeedsInputRequired(t *testing.T) {
	// weather_current answers at once: a multi round-trip call must fail loudly.
	c := testCall
	c.MultiRound, c.AnswerKey = true, "confirm"
	_, err := RunStdio(server(t, "mcpgen", Modern), c, LoadOptions{Sequential: true, Timeout: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "input_required") {
		t.Errorf("want an input_required error, got %v", err)
	}
}

func TestColdStartWithTools(t *testing.T) {
	for _, name := range []string{"mcpgen", "go-sdk", "mcp-go"} {
		for _, tools := range []int{1, 50} {
			d, err := RunColdStart(server(t, name, Modern), testCall, tools, 1, 20*time.Second)
			if err != nil {
				t.Fatalf("%s %d tools: %v", name, tools, err)
			}
			if d <= 0 || d > 20*time.Second {
				t.Errorf("%s %d tools: %v", name, tools, d)
			}
		}
	}
}

func TestStartupBenchmark(t *testing.T) {
	r, err := RunStartup(countingStarter{}, 3)
	if err != nil || r.N == 0 || r.AllocsPerOp < 3 {
		t.Errorf("RunStartup = %+v, %v", r, err)
	}
	if _, err := RunStartup(countingStarter{fail: true}, 3); err == nil {
		t.Error("a failing Start must fail the row")
	}
}

type countingStarter struct{ fail bool }

var sink []*int

func (s countingStarter) Start(tools int) error {
	if s.fail {
		return fmt.Errorf("no")
	}
	sink = sink[:0]
	for i := range tools {
		sink = append(sink, &i)
	}
	return nil
}

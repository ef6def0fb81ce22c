package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
	"github.com/mcpgen/mcpgen/bench/internal/payload"
)

// payloadKinds are the large-payload workloads: name → how to build the
// call for n bytes.
var payloadKinds = []struct {
	name string
	call func(n int) driver.Call
}{
	{"read", func(n int) driver.Call {
		want := payload.Blob(n)
		return driver.Call{Method: "resources/read", URI: payload.BlobURI(n), Check: func(reply []byte) error {
			var m struct {
				Result struct {
					Contents []struct {
						URI  string `json:"uri"`
						Blob string `json:"blob"`
					} `json:"contents"`
				} `json:"result"`
			}
			if err := json.Unmarshal(reply, &m); err != nil {
				return err
			}
			if len(m.Result.Contents) != 1 {
				return fmt.Errorf("want 1 content, got %d", len(m.Result.Contents))
			}
			got, err := base64.StdEncoding.DecodeString(m.Result.Contents[0].Blob)
			if err != nil || !bytes.Equal(got, want) {
				return fmt.Errorf("blob of %d bytes differs from the %d expected (%v)", len(got), len(want), err)
			}
			return nil
		}}
	}},
	{"result", func(n int) driver.Call {
		return driver.Call{Tool: payload.ResultTool, Arguments: payload.ResultArguments(n), Expected: payload.Text(n)}
	}},
	{"string", func(n int) driver.Call {
		return driver.Call{Tool: payload.StringTool, Arguments: payload.StringArguments(n), Expected: payload.LenText(n)}
	}},
	{"nested", func(n int) driver.Call {
		return driver.Call{Tool: payload.NestedTool, Arguments: payload.NestedArguments(n), Expected: payload.ItemsText(payload.NestedItems(n))}
	}},
}

// workloads are the calls the payload rows name: "<kind>-<size>".
func workloads() map[string]driver.Call {
	w := map[string]driver.Call{"touch": {Tool: payload.TouchTool, Arguments: []byte(`{}`), Expected: payload.TouchedText}}
	for _, n := range []int{1 << 10, 1 << 20} {
		w["mrtr-"+payload.Label(n)] = driver.Call{Tool: payload.ConfirmTool, Arguments: payload.NestedArguments(n),
			Expected: payload.ItemsText(payload.NestedItems(n)), MultiRound: true, AnswerKey: payload.ConfirmKey}
	}
	for _, k := range payloadKinds {
		for _, n := range payload.Sizes {
			w[k.name+"-"+payload.Label(n)] = k.call(n)
		}
	}
	return w
}

// toolCounts are the start-up and cold-start rows' tool counts.
var toolCounts = []int{1, 1000, 10000}

// allRows are the table's rows: the weather rows (in process, the stdio
// and HTTP sweeps), then the payload rows — each kind in process at 1 MB,
// on stdio at every size, on HTTP at 1 MB and 10 MB — up to maxSize bytes
// (0: all; below 1 MB the in-process rows use 1 KB); then start-up (in
// process) and cold start (exec to first reply) with 1, 1 000 and 10 000
// tools, up to maxTools (0: all).
func allRows(maxSize, maxTools int) []driver.Measurement {
	rows := driver.DefaultMeasurements()
	inproc := 1 << 20 // the in-process size: 1 MB, or the largest size allowed
	if maxSize > 0 && maxSize < inproc {
		inproc = payload.Sizes[0]
	}
	for _, k := range payloadKinds {
		for _, n := range payload.Sizes {
			if maxSize > 0 && n > maxSize {
				continue
			}
			w := k.name + "-" + payload.Label(n)
			if n == inproc {
				rows = append(rows, driver.Measurement{Name: w + "-inproc", Kind: driver.KindInProc, Workload: w})
			}
			rows = append(rows, driver.Measurement{Name: w + "-stdio", Kind: driver.KindStdio, Concurrency: 1, Workload: w})
			if n >= 1<<20 || maxSize > 0 && maxSize < 1<<20 {
				rows = append(rows, driver.Measurement{Name: w + "-http", Kind: driver.KindHTTP, Concurrency: 1, Workload: w})
			}
		}
	}
	for _, n := range []int{1 << 10, 1 << 20} {
		if maxSize > 0 && n > maxSize {
			continue
		}
		w := "mrtr-" + payload.Label(n)
		for _, k := range []driver.Kind{driver.KindStdio, driver.KindHTTP} {
			rows = append(rows, driver.Measurement{Name: w + "-" + string(k), Kind: k, Concurrency: 1, Workload: w})
		}
	}
	for _, n := range []int{1000} {
		rows = append(rows, driver.Measurement{Name: fmt.Sprintf("listen-%d", n), Kind: driver.KindListen, Streams: n, Workload: "touch", MaxRounds: 2})
	}
	for _, kind := range []driver.Kind{driver.KindStartup, driver.KindColdStart} {
		for _, n := range toolCounts {
			if maxTools == 0 || n <= maxTools {
				m := driver.Measurement{Name: fmt.Sprintf("%s-%d", kind, n), Kind: kind, Tools: n}
				if n >= 10000 {
					m.MaxRounds = 2 // tens of seconds per cell before #20's registration work
				}
				rows = append(rows, m)
			}
		}
	}
	return rows
}

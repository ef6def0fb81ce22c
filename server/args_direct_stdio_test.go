package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestStdioArgumentStringsOutliveTheLine: a tool's string arguments
// (stored straight into its struct's fields) keep their text while the
// stdio transport reads the next lines into its buffer: each of many
// pipelined calls, small and long lines alike, echoes its own text.
func TestStdioArgumentStringsOutliveTheLine(t *testing.T) {
	hold := NewTool(ToolInfo{Name: "hold", Description: "Echoes later"}, func(ctx context.Context, in struct {
		Text string `json:"text" jsonschema:"required"`
		On   bool   `json:"on"`
	}) (string, error) {
		time.Sleep(20 * time.Millisecond)
		return fmt.Sprintf("%s|%v", in.Text, in.On), nil
	})
	f := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, hold) })
	p := startStdio(t, f.s, 0)
	const n = 24
	want := map[string]string{}
	for i := range n {
		size := []int{3, 40, 5000, 70000}[i%4]
		text := strings.Repeat(string(rune('a'+i)), size)
		id := fmt.Sprint(i + 1)
		want[id] = fmt.Sprintf("%s|%v", text, i%2 == 0)
		args := fmt.Sprintf(`{"text":%q,"on":%v}`, text, i%2 == 0)
		p.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + withMeta(`{"name":"hold","arguments":`+args+`}`, defaultMeta) + `}`)
	}
	for range n {
		var line string
		select {
		case line = <-p.lines:
		case <-time.After(5 * time.Second):
			t.Fatal("no answer")
		}
		var r struct {
			ID     json.RawMessage `json:"id"`
			Result struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil || len(r.Result.Content) == 0 {
			t.Fatalf("%.300s: %v", line, err)
		}
		if got := r.Result.Content[0].Text; got != want[string(r.ID)] {
			t.Errorf("id %s: echoed %.40q (len %d), want %.40q (len %d)", r.ID, got, len(got), want[string(r.ID)], len(want[string(r.ID)]))
		}
	}
}

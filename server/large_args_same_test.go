package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

type wideItem struct {
	Name  string         `json:"name"`
	Value int            `json:"value"`
	Tags  []string       `json:"tags,omitempty"`
	Sub   map[string]any `json:"sub,omitempty"`
}

type wideToolArgs struct {
	Items []wideItem `json:"items"`
	Grid  [][]int    `json:"grid,omitempty"`
	Label string     `json:"label,omitempty"`
	Raw   json.RawMessage
}

const wideToolSchema = `{"type":"object","required":["items"],"properties":{
	"items":{"type":"array","items":{"type":"object","required":["name"],"properties":{"name":{"type":"string","minLength":1},"value":{"type":"integer","minimum":0,"default":7},"tags":{"type":"array","items":{"type":"string","enum":["a","b"]}},"sub":{"type":"object"}}}},
	"grid":{"type":"array","items":{"type":"array","items":{"type":"integer"}}},
	"label":{"type":"string","default":"none"}}}`

// wideItemsArgs builds {"items":[…n…], …} with element k from f.
func wideItemsArgs(n int, f func(k int) string, tail string) string {
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f(k))
	}
	b.WriteString(`]` + tail + `}`)
	return b.String()
}

// TestLargeArgumentsAnswerAsSmallOnes: the same arguments (about 200 KB) in a
// message under 1 MiB (read from the message's tape, the whole path) and
// padded over 1 MiB (only checked, decoded element-wise with the message's
// spans) get the same answer.
func TestLargeArgumentsAnswerAsSmallOnes(t *testing.T) {
	s, err := New(Options{Name: "t", Version: "1", Tools: []Tool{NewTool(ToolInfo{Name: "t", InputSchema: json.RawMessage(wideToolSchema)},
		func(ctx context.Context, in wideToolArgs) (string, error) {
			b, _ := json.Marshal(in)
			return fmt.Sprintf("%x", b), nil // the decoded value, whole
		})}})
	if err != nil {
		t.Fatal(err)
	}
	h := s.HTTPHandler(HTTPOptions{MaxBodyBytes: 16 << 20})
	const n = 4000
	good := func(k int) string {
		return fmt.Sprintf(`{"name":"n%05d","value":%d,"tags":["a"],"sub":{"k":[%d]}}`, k, k, k)
	}
	grid := `,"grid":[` + strings.TrimSuffix(strings.Repeat(`[1,2,3,4,5,6,7,8,9,10],`, 8000), ",") + `]`
	cases := map[string]string{
		"valid":      wideItemsArgs(n, good, ""),
		"valid+grid": wideItemsArgs(n, good, grid),
		"defaults":   wideItemsArgs(n, func(k int) string { return fmt.Sprintf(`{"name":"n%05d","value":null}`, k) }, `,"label":null`),
		"bad element": wideItemsArgs(n, func(k int) string {
			return strings.Replace(good(k), `"tags":["a"]`, `"tags":["c"]`, boolInt(k == 3333))
		}, ""),
		"many bad":      wideItemsArgs(3*n, func(k int) string { return fmt.Sprintf(`{"value":-%d}`, k+1) }, ""),
		"type error":    wideItemsArgs(n, func(k int) string { return strings.Replace(good(k), `"sub":{`, `"sub":{"x":1},"zz":{`, 1) }, `,"Raw":[1,2]`),
		"big number":    wideItemsArgs(n, good, `,"grid":[[1e1001]]`),
		"big number in": wideItemsArgs(n, func(k int) string { return strings.Replace(good(k), `"k":[`, `"k":[1e1001,`, boolInt(k == n-1)) }, ""),
		"dup in element": wideItemsArgs(n, func(k int) string {
			return strings.Replace(good(k), `"sub":{"k"`, `"sub":{"k":1,"k"`, boolInt(k == 10))
		}, ""),
		"go type error": wideItemsArgs(n, good, `,"grid":[[1,2.5]]`),
		"escapes": wideItemsArgs(n, func(k int) string {
			return fmt.Sprintf(`{"name":"\u00e9\ud83d\ude00\n%d","sub":{"\u006b":["\"]"]}}`, k)
		}, ""),
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			small := callBody("1", "t", args)
			if len(small) >= 1<<20 || len(args) < 64<<10 {
				t.Fatalf("sizes: message %d, args %d", len(small), len(args))
			}
			pad := `"_pad":"` + strings.Repeat("x", 1<<20) + `",`
			large := reqBody("1", "tools/call", pad+`"name":"t","arguments":`+args)
			a := serveOnce(t, h, small, stdHeaders("tools/call", "t")).Body.String()
			b := serveOnce(t, h, large, stdHeaders("tools/call", "t")).Body.String()
			t.Logf("%d bytes: %.200s", len(a), a)
			if a != b {
				t.Errorf("answers differ:\nwhole:   %.600s\nlazy:    %.600s", a, b)
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

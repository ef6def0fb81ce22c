package server

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/jsonrpc"
)

// oneParseSeeds are requests whose params, _meta or arguments the one
// parse and the scans of bytes could read differently: escaped and
// case-varied member names, names repeated at every level (the parse
// refuses them and the bytes path answers), nesting at the parse's limit,
// numbers beyond the argument limits, and arguments the schemas shape.
var oneParseSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"echo","arguments":{"text":"a","text":"b"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientCapabilities":{}},"name":"echo","arguments":{"text":"a"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"echo","name":"echo","arguments":{"text":"a"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"\u005fmeta":{"io.modelcontextprotocol\/protocolVersion":"2026\u002d07-28","io.modelcontextprotocol/clientCapabilities":{}},"n\u0061me":"ec\u0068o","arguments":{"t\u0065xt":"\u00e9\ud83d\ude00<&>"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_META":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"Name":"x","name":"echo","Arguments":1,"arguments":{"Text":"A","text":"a"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]},"name":"echo"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"","io.modelcontextprotocol/clientCapabilities":{}},"name":"echo"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud","progressToken":1.5},"name":"echo"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":"x"},"name":"echo"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}},"name":"echo"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":1,"uri":2,"taskId":3,"requestState":4}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"raw","arguments":{"z":1,"a":[1e2,-0,{"b":null,"\u0061":true}],"<":"\u2028"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"raw","arguments":null}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"raw","arguments":{ }}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"raw","arguments":{"n":1e1001}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"nested","arguments":{"n":7,"f":1.5,"l":[{"k":"v"}],"m":{"x":"y"}}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"nested","arguments":{"a":null,"n":101,"o":null,"m":{"x":1}}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"nested","arguments":{"n":1.0,"o":{"x":[1,2.5]}}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"raw","arguments":{"d":` + strings.Repeat("[", 510) + strings.Repeat("]", 510) + `}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"raw","arguments":{"d":` + strings.Repeat("[", 511) + strings.Repeat("]", 511) + `}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"multi_round","arguments":{"b":1,"a":2},"requestState":"x","inputResponses":{"step1":{"action":"accept","content":{"name":"A"}}}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"test://static-text","uri":"x"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"taskId":"t\u0031"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"cursor":{"a":1,"a":1}}}`,
}

// fuzzOracleTools are tools whose arguments the schema shapes (defaults,
// nulls of optional properties, maximum, nested and additional
// properties) and one that takes any object verbatim, beside the
// fixture's.
func fuzzOracleTools() []Tool {
	type nested struct {
		A string            `json:"a"`
		N *int              `json:"n"`
		F float64           `json:"f"`
		L []map[string]any  `json:"l"`
		O struct{ X []int } `json:"o"`
		M map[string]string `json:"m"`
	}
	return []Tool{
		NewTool(ToolInfo{Name: "raw", Description: "Any object"}, func(ctx context.Context, in json.RawMessage) (string, error) { return string(in), nil }),
		NewTool(ToolInfo{Name: "nested", Description: "Shaped arguments", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","default":"d"},"n":{"type":"integer","maximum":100},"f":{"type":"number"},"l":{"type":"array","items":{"type":"object"}},"o":{"type":"object","properties":{"X":{"type":"array","items":{"type":"integer"}}},"default":{"X":[1]}},"m":{"type":"object","additionalProperties":{"type":"string"}}}}`)},
			func(ctx context.Context, in nested) (string, error) {
				b, err := json.Marshal(in)
				return string(b), err
			}),
	}
}

// unsealed hides the parts of a reply that differ between two runs of the
// same request: a sealed requestState (a fresh nonce) and task ids and
// times.
var unsealed = regexp.MustCompile(`"(requestState|taskId|createdAt|lastUpdatedAt)":"[^"]*"`)

// FuzzHandleOneParse checks HandleBytes, which reads params, _meta and a
// tool's arguments (validation, decoding, the requestState identity) from
// the one parse jsonrpc.Decode made of the message, against the same
// message with that parse taken away (params scanned from the bytes,
// arguments parsed again: the path before the one parse, and still the
// path of a Message built by hand): the same reply and notifications for
// every input, and the same identity a requestState is bound to.
// FuzzDecodeTape (jsonrpc) checks Decode's Message and Error against the
// scans it replaced.
func FuzzHandleOneParse(f *testing.F) {
	for _, s := range append(append([]string(nil), fuzzHandleSeeds...), oneParseSeeds...) {
		f.Add([]byte(s))
	}
	addCorpus(f, "testdata/fuzz/FuzzExtensionParamsDuplicates")
	addCorpus(f, "testdata/fuzz/FuzzLegacyResultConversion")
	for _, dir := range []string{"../internal/argcheck/testdata/fuzz/FuzzDecode", "../internal/argcheck/testdata/fuzz/FuzzValidate"} {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if args := corpusBytes(filepath.Join(dir, e.Name())); len(args) > 0 {
				for _, tool := range []string{"raw", "nested", "echo"} {
					f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"` + tool + `","arguments":` + string(args) + `}}`))
				}
			}
		}
	}
	if dir := os.Getenv("MCPGEN_SPEC_DIR"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "schema", "2026-07-28", "examples", "*Request", "*.json"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	fx := newFixture(f, func(o *Options) {
		o.Tools = slices.DeleteFunc(o.Tools, func(t Tool) bool { return t.Name() == "slow" || t.Name() == "sleep" })
		o.Tools = append(o.Tools, fuzzOracleTools()...)
	})
	f.Fuzz(func(t *testing.T, data []byte) { checkOneParse(t, fx, data, 50*time.Millisecond) })
}

// checkOneParse is FuzzHandleOneParse's check of one input, each run
// given timeout; false when a run did not end in time (a listen stream,
// or a machine too loaded to compare).
func checkOneParse(t *testing.T, fx *fixture, data []byte, timeout time.Duration) bool {
	t.Helper()
	msg, derr := jsonrpc.Decode(data)
	if _, _, ok := msg.ParamsTape(); ok && derr == nil {
		pr := parseRequest(msg)
		if at := &pr.params.argsTape; at.Nodes() != 0 && !at.Opaque(0) {
			got := appendIdentityTape(nil, msg.Method, pr.params.name, &pr.params.argsTape)
			want := appendIdentity(nil, msg.Method, pr.params.name, pr.params.arguments)
			if !bytes.Equal(got, want) {
				t.Fatalf("%q: identity %q, want %q", data, got, want)
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var gotNotes, wantNotes recorder
	got := fx.s.HandleBytes(ctx, data, &gotNotes)
	var want Response
	if derr != nil {
		want = errorFor(msg, derr)
	} else {
		plain := jsonrpc.Message{Kind: msg.Kind, ID: msg.ID, Method: msg.Method, Params: msg.Params, Result: msg.Result, Error: msg.Error}
		if _, _, ok := plain.ParamsTape(); ok {
			t.Fatal("a Message built by hand carries a parse")
		}
		want = fx.s.Handle(ctx, plain, &wantNotes)
	}
	if ctx.Err() != nil {
		return false
	}
	g, w := unsealed.ReplaceAll(got.Body, []byte(`"$1":"~"`)), unsealed.ReplaceAll(want.Body, []byte(`"$1":"~"`))
	if !bytes.Equal(g, w) || got.Code != want.Code {
		t.Fatalf("%q:\n got %d %s\nwant %d %s", data, got.Code, got.Body, want.Code, want.Body)
	}
	if gn, wn := noteText(&gotNotes), noteText(&wantNotes); gn != wn {
		t.Fatalf("%q: notifications\n got %s\nwant %s", data, gn, wn)
	}
	return true
}

func noteText(r *recorder) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, n := range r.notes {
		b.WriteString(n.Method + " " + string(unsealed.ReplaceAll(n.Params, []byte(`"$1":"~"`))) + "\n")
	}
	return b.String()
}

// addCorpus adds the inputs of a go-fuzz corpus folder.
func addCorpus(f *testing.F, dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if b := corpusBytes(filepath.Join(dir, e.Name())); b != nil {
			f.Add(b)
		}
	}
}

// corpusBytes is the one []byte or string value of a corpus file, or nil.
func corpusBytes(path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "go test fuzz v1") {
		return nil
	}
	v := lines[1]
	for _, p := range []string{"[]byte(", "string("} {
		if strings.HasPrefix(v, p) && strings.HasSuffix(v, ")") {
			if u, err := strconv.Unquote(v[len(p) : len(v)-1]); err == nil {
				return []byte(u)
			}
		}
	}
	return nil
}

// TestOneParseLarge runs checkOneParse on messages of more than 1 MiB,
// whose arguments stay off the message's tape (only checked) and are
// parsed by their checker: valid ones, a repeated name and nesting too
// deep inside them, invalid UTF-8 in them.
func TestOneParseLarge(t *testing.T) {
	fx := newFixture(t, func(o *Options) { o.Tools = append(o.Tools, fuzzOracleTools()...) })
	big := strings.Repeat(`{"k":"v"},`, 120_000)
	call := func(tool, args string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"` + tool + `","arguments":` + args + `}}`)
	}
	for _, data := range [][]byte{
		call("nested", `{"l":[`+big+`{}],"n":3}`),
		call("nested", `{"l":[`+big+`{"x":1,"x":2}]}`),
		call("raw", `{"l":[`+big+strings.Repeat("[", 600)+strings.Repeat("]", 600)+`]}`),
		call("raw", `{"l":[`+big+`"`+"\xff"+`"]}`),
		call("echo", `{"text":"`+strings.Repeat("a", 1<<20)+`"}`),
		call("nested", `{"n":1e9999,"l":[`+big+`{}]}`),
	} {
		if len(data) < 1<<20 {
			t.Fatalf("a large seed of %d bytes", len(data))
		}
		msg, derr := jsonrpc.Decode(data)
		if derr == nil && !bytes.Contains(data, []byte("\xff")) {
			if _, _, ok := msg.ParamsTape(); !ok {
				t.Fatalf("%.80q…: no parse", data)
			}
			if at := parseRequest(msg).params.argsTape; at.Nodes() != 0 && !at.Opaque(0) {
				t.Fatalf("%.80q…: large arguments on the message's tape", data)
			}
		}
		if !checkOneParse(t, fx, data, time.Minute) {
			t.Fatalf("%.80q…: not answered in a minute", data)
		}
	}
}

package generator_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
	"github.com/mcpgen/mcpgen/schema"
)

// attackGenerate holds a schema ($defs given as JSON) to the generator's
// promise: it is either refused with an error naming a JSON pointer, or it
// generates a package in which the behaviour test src (package p) passes.
// It reports whether the schema was refused.
func attackGenerate(t *testing.T, defs, src string) (refused bool) {
	t.Helper()
	m, err := loadDefs(t, defs)
	if err == nil {
		var files []generator.File
		files, err = generator.Generate(m, generator.Options{Package: "p"})
		if err == nil {
			mod := t.TempDir()
			for _, f := range files {
				writeFile(t, filepath.Join(mod, "p", f.Name), f.Content)
			}
			writeFile(t, filepath.Join(mod, "p", "attack_test.go"), []byte(src))
			writeFile(t, filepath.Join(mod, "go.mod"), []byte("module example.com/gen\n\ngo 1.26\n"))
			goCmd, lerr := exec.LookPath("go")
			if lerr != nil {
				t.Skip("no go command in PATH")
			}
			cmd := exec.Command(goCmd, "test", "-count=1", "./...")
			cmd.Dir = mod
			cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("the schema generated a package (no error), but the package fails on messages the schema allows:\n%s", out)
			}
			return false
		}
	}
	var list schema.ErrorList
	var gerr *generator.Error
	if !(errors.As(err, &list) && strings.HasPrefix(list[0].Pointer, "#/")) && !errors.As(err, &gerr) {
		t.Fatalf("refused without a JSON pointer: %v", err)
	}
	return true
}

// roundTripSrc decodes each [definition, message] pair with DecodeNamed and
// encodes it again: the JSON must come back the same.
const roundTripSrc = `package p

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestAttackRoundTrip(t *testing.T) {
	for _, c := range cases {
		v, err := DecodeNamed(c[0], []byte(c[1]))
		if err != nil {
			t.Errorf("%s %s: valid message refused: %v", c[0], c[1], err)
			continue
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Errorf("%s %s: encode: %v", c[0], c[1], err)
			continue
		}
		var a, b any
		json.Unmarshal([]byte(c[1]), &a)
		json.Unmarshal(out, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: round trip changed the message:\nin  %s\nout %s", c[0], c[1], out)
		}
	}
}
`

// TestAttackIntegerBeyondInt64 — an integer whose enum value or minimum
// lies beyond int64 (a future revision widening a size or an id) is
// neither refused nor representable: the package generates, then refuses
// every value the schema allows there ("integer … is out of range
// (int64)"). The generator must refuse such a schema naming the pointer,
// or generate a type that holds the values.
func TestAttackIntegerBeyondInt64(t *testing.T) {
	defs := `{"Big":{"type":"object","properties":{"e":{"type":"integer","enum":[1,99999999999999999999]},"m":{"type":"integer","minimum":1e30}}}}`
	attackGenerate(t, defs, roundTripSrc+`
var cases = [][2]string{
	{"Big", `+"`"+`{"e":99999999999999999999}`+"`"+`},
	{"Big", `+"`"+`{"m":1e30}`+"`"+`},
	{"Big", `+"`"+`{"m":2000000000000000000000000000000}`+"`"+`},
}
`)
}

// dispatchDefs: a client request whose params $ref a union (as
// ElicitRequestParams already is in 2025-11-25), and one whose required
// params may be null.
const dispatchDefs = `{
"TextItem":{"type":"object","properties":{"type":{"const":"text","type":"string"},"text":{"type":"string"}},"required":["type","text"]},
"NumItem":{"type":"object","properties":{"type":{"const":"num","type":"string"},"n":{"type":"integer"}},"required":["type","n"]},
"Item":{"anyOf":[{"$ref":"#/$defs/TextItem"},{"$ref":"#/$defs/NumItem"}]},
"PutRequest":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"items/put","type":"string"},"params":{"$ref":"#/$defs/Item"}},"required":["jsonrpc","id","method","params"]},
"MaybeRequest":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"maybe/do","type":"string"},"params":{"type":["object","null"],"properties":{"a":{"type":"string"}}}},"required":["jsonrpc","id","method","params"]},
"ClientRequest":{"anyOf":[{"$ref":"#/$defs/PutRequest"},{"$ref":"#/$defs/MaybeRequest"}]}
}`

const dispatchHandlers = `package p

import (
	"context"
	"encoding/json"
	"testing"
)

type h struct{}

func (h) Put(ctx context.Context, params *Item) (any, error)                 { return struct{}{}, nil }
func (h) Maybe(ctx context.Context, params *MaybeRequestParams) (any, error) { return struct{}{}, nil }

// dispatch checks that the generated decoder takes the whole request, then
// that the Dispatcher takes its params.
func dispatch(t *testing.T, def, method, params string) {
	t.Helper()
	msg := ` + "`" + `{"jsonrpc":"2.0","id":1,"method":"` + "`" + ` + method + ` + "`" + `","params":` + "`" + ` + params + "}"
	if _, err := DecodeNamed(def, []byte(msg)); err != nil {
		t.Fatalf("DecodeNamed(%s) refuses %s: %v", def, msg, err)
	}
	if _, err := NewDispatcher(h{}).Dispatch(context.Background(), method, json.RawMessage(params)); err != nil {
		t.Errorf("DecodeNamed(%s) accepts %s, but Dispatch(%s) refuses its params %s: %v", def, msg, method, params, err)
	}
}
`

// TestAttackDispatchUnionParams — a client request whose params $ref a
// union generates (handler Put(ctx, *Item)), and the generated decoder
// reads the request, but the Dispatcher decodes params with
// json.Unmarshal into a *Item, an interface: every valid request is
// answered with the error "params: expected an object, got object".
func TestAttackDispatchUnionParams(t *testing.T) {
	attackGenerate(t, dispatchDefs, dispatchHandlers+`
func TestUnionParams(t *testing.T) {
	dispatch(t, "PutRequest", MethodItemsPut, `+"`"+`{"type":"text","text":"hi"}`+"`"+`)
	dispatch(t, "PutRequest", MethodItemsPut, `+"`"+`{"type":"num","n":2}`+"`"+`)
}
`)
}

// TestAttackDispatchNullableParams — required params of type
// ["object","null"]: the generated decoder takes "params":null, the
// Dispatcher refuses the same params ("params: missing required member"):
// two parsers of one message disagree.
func TestAttackDispatchNullableParams(t *testing.T) {
	attackGenerate(t, dispatchDefs, dispatchHandlers+`
func TestNullableParams(t *testing.T) {
	dispatch(t, "MaybeRequest", MethodMaybeDo, `+"`"+`{"a":"x"}`+"`"+`)
	dispatch(t, "MaybeRequest", MethodMaybeDo, "null")
}
`)
}

// TestAttackNullableObjectElements — an object that may be null is
// supported as a property (the required T.no below takes null) and refused with
// a pointer error as a definition ("unsupported type \"object\""), but as
// an array item, a map value or a _meta object it is silently generated
// as a non-nullable struct: the package then refuses the null the schema
// allows ("expected an object, got null").
func TestAttackNullableObjectElements(t *testing.T) {
	defs := `{"T":{"type":"object","properties":{
		"no":{"type":["object","null"],"properties":{"q":{"type":"string"}}},
		"ao":{"type":"array","items":{"type":["object","null"],"properties":{"q":{"type":"string"}}}},
		"mo":{"type":"object","additionalProperties":{"type":["object","null"],"properties":{"q":{"type":"string"}}}}},"required":["no"]},
		"V":{"type":"object","properties":{"_meta":{"type":["object","null"],"properties":{"k":{"type":"string"}}}},"required":["_meta"]}}`
	attackGenerate(t, defs, roundTripSrc+`
var cases = [][2]string{
	{"T", `+"`"+`{"no":null,"ao":[null,{"q":"r"}]}`+"`"+`},
	{"T", `+"`"+`{"no":{"q":"s"},"mo":{"k":null,"j":{"q":"r"}}}`+"`"+`},
	{"V", `+"`"+`{"_meta":null}`+"`"+`},
}
`)
}

// TestAttackMethodDefinedTwice — two client requests with one method
// ("ping"), as a revision keeping an old and a new shape of one request
// could have: the schema loads without an error, one definition is kept
// silently (by name: Ping2Request), and the package disagrees with itself:
// DecodeClientRequest accepts a PingRequest whose params the Dispatcher's
// "ping" route (decoding Ping2Request's params) refuses. The generator
// must refuse the schema naming the second definition, or route the
// method so that what the union decodes is also dispatched.
func TestAttackMethodDefinedTwice(t *testing.T) {
	defs := `{
"PingRequest":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"ping","type":"string"},"params":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],"additionalProperties":false}},"required":["jsonrpc","id","method","params"]},
"Ping2Request":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"ping","type":"string"},"params":{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false}},"required":["jsonrpc","id","method"]},
"ClientRequest":{"anyOf":[{"$ref":"#/$defs/PingRequest"},{"$ref":"#/$defs/Ping2Request"}]}
}`
	attackGenerate(t, defs, `package p

import (
	"context"
	"encoding/json"
	"testing"
)

type h struct{}

func (h) Ping2(ctx context.Context, params *Ping2RequestParams) (any, error) { return struct{}{}, nil }

func TestPing(t *testing.T) {
	msg := `+"`"+`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1}}`+"`"+`
	v, err := DecodeClientRequest([]byte(msg))
	if err != nil {
		t.Fatalf("DecodeClientRequest refuses %s: %v", msg, err)
	}
	if _, err := NewDispatcher(h{}).Dispatch(context.Background(), "ping", json.RawMessage(`+"`"+`{"a":1}`+"`"+`)); err != nil {
		t.Errorf("DecodeClientRequest reads %s as a %T, but Dispatch(\"ping\") refuses its params: %v", msg, v, err)
	}
}
`)
}

// TestAttackByteEnumIsNoGeneratorBug — a base64 member (format: byte, as
// `blob` and `data` are) that lists its allowed values: Generate refuses
// it with "generator bug: the Go it would write does not compile"
// (checkOneOf on a []byte). Generate's own doc calls that error a
// generator bug; a schema is either supported or refused as unsupported.
func TestAttackByteEnumIsNoGeneratorBug(t *testing.T) {
	m, err := loadDefs(t, `{"B":{"type":"object","properties":{"eb":{"type":"string","format":"byte","enum":["YQ==","Yg=="]}}}}`)
	if err != nil {
		return // refused while loading, naming the pointer
	}
	if _, err := generator.Generate(m, generator.Options{Package: "p"}); err != nil && strings.Contains(err.Error(), "generator bug") {
		t.Fatalf("Generate: %v", err)
	}
}

package generator_test

import (
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generator"
)

// TestAttackIntegerBeyondInt64 — an integer whose enum value or minimum
// lies beyond int64 (a future revision widening a size or an id) is
// neither refused nor representable: the package generates, then refuses
// every value the schema allows there ("integer … is out of range
// (int64)"). The generator must refuse such a schema naming the pointer,
// or generate a type that holds the values.
func TestAttackIntegerBeyondInt64(t *testing.T) {
	defs := `{"Big":{"type":"object","properties":{"e":{"type":"integer","enum":[1,99999999999999999999]},"m":{"type":"integer","minimum":1e30}}}}`
	generateOrRefuse(t, defs, roundTripSrc+`
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
	generateOrRefuse(t, dispatchDefs, dispatchHandlers+`
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
	generateOrRefuse(t, dispatchDefs, dispatchHandlers+`
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
	generateOrRefuse(t, defs, roundTripSrc+`
var cases = [][2]string{
	{"T", `+"`"+`{"no":null,"ao":[null,{"q":"r"}]}`+"`"+`},
	{"T", `+"`"+`{"no":{"q":"s"},"mo":{"k":null,"j":{"q":"r"}}}`+"`"+`},
	{"V", `+"`"+`{"_meta":null}`+"`"+`},
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

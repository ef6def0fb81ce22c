package generator_test

import "testing"

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

// TestDispatchDecodesUnionParams — a client request whose params $ref a
// union generates (handler Put(ctx, *Item)), and the generated decoder
// reads the request; the Dispatcher decoded params with json.Unmarshal
// into a *Item, an interface, answering every valid request with
// "params: expected an object, got object". It uses the union's decoder
// now.
func TestDispatchDecodesUnionParams(t *testing.T) {
	generateOrRefuse(t, dispatchDefs, dispatchHandlers+`
func TestUnionParams(t *testing.T) {
	dispatch(t, "PutRequest", MethodItemsPut, `+"`"+`{"type":"text","text":"hi"}`+"`"+`)
	dispatch(t, "PutRequest", MethodItemsPut, `+"`"+`{"type":"num","n":2}`+"`"+`)
}
`)
}

// TestDispatchTakesNullParamsTheSchemaAllows — required params of type
// ["object","null"]: the generated decoder takes "params":null, and so
// must the Dispatcher (it answered "params: missing required member"):
// two parsers of one message must agree.
func TestDispatchTakesNullParamsTheSchemaAllows(t *testing.T) {
	generateOrRefuse(t, dispatchDefs, dispatchHandlers+`
func TestNullableParams(t *testing.T) {
	dispatch(t, "MaybeRequest", MethodMaybeDo, `+"`"+`{"a":"x"}`+"`"+`)
	dispatch(t, "MaybeRequest", MethodMaybeDo, "null")
}
`)
}

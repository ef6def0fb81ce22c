package generator_test

import "testing"

const paramsDiffDefs = `{
"TextItem":{"type":"object","properties":{"type":{"const":"text","type":"string"},"text":{"type":"string"}},"required":["type","text"]},
"NumItem":{"type":"object","properties":{"type":{"const":"num","type":"string"},"n":{"type":"integer"}},"required":["type","n"]},
"Item":{"anyOf":[{"$ref":"#/$defs/TextItem"},{"$ref":"#/$defs/NumItem"}]},
"ItemAlias":{"$ref":"#/$defs/Item"},
"ItemAlias2":{"$ref":"#/$defs/ItemAlias"},
"Obj":{"type":"object","properties":{"a":{"type":"string"}}},
"R1Request":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"r/1","type":"string"},"params":{"$ref":"#/$defs/Item"}},"required":["jsonrpc","id","method","params"]},
"R2Request":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"r/2","type":"string"},"params":{"$ref":"#/$defs/Item"}},"required":["jsonrpc","id","method"]},
"R3Request":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"r/3","type":"string"},"params":{"anyOf":[{"$ref":"#/$defs/Item"},{"type":"null"}]}},"required":["jsonrpc","id","method","params"]},
"R4Request":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"r/4","type":"string"},"params":{"anyOf":[{"$ref":"#/$defs/Item"},{"type":"null"}]}},"required":["jsonrpc","id","method"]},
"R5Request":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"r/5","type":"string"},"params":{"anyOf":[{"$ref":"#/$defs/Obj"},{"type":"null"}]}},"required":["jsonrpc","id","method","params"]},
"R6Request":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"r/6","type":"string"},"params":{"$ref":"#/$defs/Obj"}},"required":["jsonrpc","id","method"]},
"R7Request":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"r/7","type":"string"},"params":{"$ref":"#/$defs/ItemAlias2"}},"required":["jsonrpc","id","method","params"]},
"R8Request":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"r/8","type":"string"},"params":{"$ref":"#/$defs/ItemAlias2"}},"required":["jsonrpc","id","method"]},
"ClientRequest":{"anyOf":[{"$ref":"#/$defs/R1Request"},{"$ref":"#/$defs/R2Request"},{"$ref":"#/$defs/R3Request"},{"$ref":"#/$defs/R4Request"},{"$ref":"#/$defs/R5Request"},{"$ref":"#/$defs/R6Request"},{"$ref":"#/$defs/R7Request"},{"$ref":"#/$defs/R8Request"}]}
}`

// TestDispatchAgreesWithDecodeNamedOnParams holds the Dispatcher and the
// request's decoder (DecodeNamed) to one verdict on every params: absent,
// null, of the wrong kind, valid or not, for params that are a struct or a
// union (through aliases too), required or not, that may be null or not.
// The Dispatcher took absent params where the schema requires params that
// may be null (R3, R5: ParamsRequired was cleared for them), and null where
// optional union params may not be null (R2, R4, R8); the decoder refused
// the null that anyOf [union, null] allows (R3, R4). Once the request's
// decoder refused null for optional params that may not be null (R6), the
// Dispatcher still took it as absent params.
func TestDispatchAgreesWithDecodeNamedOnParams(t *testing.T) {
	generateOrRefuse(t, paramsDiffDefs, `package p

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

func TestDiff(t *testing.T) {
	d := NewDispatcher(all{})
	inputs := []string{"", "null", "{}", "[]", "1", `+"`"+`{"type":"text","text":"hi"}`+"`"+`, `+"`"+`{"type":"num","n":2}`+"`"+`, `+"`"+`{"type":"num","n":"x"}`+"`"+`, `+"`"+`{"a":"x"}`+"`"+`, `+"`"+`{"a":1}`+"`"+`}
	for i := 1; i <= 8; i++ {
		def := fmt.Sprintf("R%dRequest", i)
		method := fmt.Sprintf("r/%d", i)
		for _, in := range inputs {
			msg := `+"`"+`{"jsonrpc":"2.0","id":1,"method":"`+"`"+` + method + `+"`"+`"`+"`"+`
			var raw json.RawMessage
			if in != "" {
				msg += `+"`"+`,"params":`+"`"+` + in
				raw = json.RawMessage(in)
			}
			msg += "}"
			_, derr := DecodeNamed(def, []byte(msg))
			_, perr := d.Dispatch(context.Background(), method, raw)
			if (derr == nil) != (perr == nil) {
				t.Errorf("%s params %q: DecodeNamed err=%v, Dispatch err=%v", def, in, derr, perr)
			}
		}
	}
}

type all struct{}
func (all) R1(ctx context.Context, params *Item) (any, error) { return 1, nil }
func (all) R2(ctx context.Context, params *Item) (any, error) { return 1, nil }
func (all) R3(ctx context.Context, params *Item) (any, error) { return 1, nil }
func (all) R4(ctx context.Context, params *Item) (any, error) { return 1, nil }
func (all) R5(ctx context.Context, params *Obj) (any, error) { return 1, nil }
func (all) R6(ctx context.Context, params *Obj) (any, error) { return 1, nil }
func (all) R7(ctx context.Context, params *ItemAlias2) (any, error) { return 1, nil }
func (all) R8(ctx context.Context, params *ItemAlias2) (any, error) { return 1, nil }
`)
}

package generator_test

import (
	"strings"
	"testing"
)

// TestMethodDefinedTwiceIsRefused — two client requests with one method
// ("ping"), as a revision keeping an old and a new shape of one request
// could have. The schema loaded, one definition was kept silently (by
// name: Ping2Request), and the package disagreed with itself:
// DecodeClientRequest accepted a PingRequest whose params the
// Dispatcher's "ping" route (decoding Ping2Request's params) refused. The
// schema is refused now, naming both definitions (were it to generate,
// what the union decodes would have to be dispatched too).
func TestMethodDefinedTwiceIsRefused(t *testing.T) {
	defs := `{
"PingRequest":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"ping","type":"string"},"params":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],"additionalProperties":false}},"required":["jsonrpc","id","method","params"]},
"Ping2Request":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"ping","type":"string"},"params":{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false}},"required":["jsonrpc","id","method"]},
"ClientRequest":{"anyOf":[{"$ref":"#/$defs/PingRequest"},{"$ref":"#/$defs/Ping2Request"}]}
}`
	err := generateOrRefuse(t, defs, `package p

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
	if err == nil || !strings.Contains(err.Error(), "#/$defs/PingRequest") || !strings.Contains(err.Error(), "#/$defs/Ping2Request") {
		t.Fatalf("got %v, want the schema refused naming both definitions of ping", err)
	}
}

// TestNotificationSharingARequestMethodIsRefused — a notification whose
// method is a request's vanished from the method constants (one of the
// two was kept by name): the schema is refused, naming both.
func TestNotificationSharingARequestMethodIsRefused(t *testing.T) {
	defs := `{
"PingRequest":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"integer"},"method":{"const":"ping","type":"string"}},"required":["jsonrpc","id","method"]},
"PingNotification":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"method":{"const":"ping","type":"string"}},"required":["jsonrpc","method"]}
}`
	_, err := loadDefs(t, defs)
	if err == nil || !strings.Contains(err.Error(), `#/$defs/PingRequest/properties/method: method "ping" is defined twice`) || !strings.Contains(err.Error(), "#/$defs/PingNotification") {
		t.Fatalf("Load: %v, want the schema refused naming both definitions of ping", err)
	}
}

package argschema

import (
	"encoding/json"
	"math/big"
	"net"
	"net/netip"
	"reflect"
	"testing"
)

// color is an integer written as its name.
type color int

func (c color) MarshalText() ([]byte, error)  { return []byte("red"), nil }
func (c *color) UnmarshalText(b []byte) error { return nil }

type selfEncodingArgs struct {
	Host  netip.Addr      `json:"host" jsonschema:"required"`
	Raw   json.RawMessage `json:"raw,omitempty"`
	Color color           `json:"color,omitempty"`
	Big   *big.Int        `json:"big,omitempty"`
	IP    net.IP          `json:"ip,omitempty"`
	Hosts []netip.Addr    `json:"hosts,omitempty"`
}

// TestForSelfEncodingTypes: a type encoding/json hands to its own methods
// is described by them, not by its fields (netip.Addr is not an object
// without properties): any JSON for json.Marshaler/Unmarshaler, a string
// for the text ones; `mcpgen tools` derives the same (bind).
func TestForSelfEncodingTypes(t *testing.T) {
	raw, err := ForType[selfEncodingArgs]()
	if err != nil {
		t.Fatal(err)
	}
	s := schemaMap(t, raw)
	props := s["properties"].(map[string]any)
	str := map[string]any{"type": "string"}
	for name, want := range map[string]any{
		"host": str, "raw": true, "color": str, "big": true, "ip": str,
		"hosts": map[string]any{"type": "array", "items": str},
	} {
		if got := props[name]; !reflect.DeepEqual(got, want) {
			t.Errorf("property %s = %#v, want %#v", name, got, want)
		}
	}
	v, err := Compile(raw)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Validate([]byte(`{"host":"2001:db8::1","raw":[1],"color":"red","big":12345678901234567890,"ip":"10.0.0.1","hosts":["10.0.0.2"]}`)); err != nil {
		t.Errorf("valid arguments refused: %v", err)
	}
}

package bind

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpgen/mcpgen/argschema"
	"github.com/mcpgen/mcpgen/internal/schemapattern"
)

// intKeysArgs is the Args type of the intkeys fixture, reflected on by
// argschema.
type intKeysArgs struct {
	I   map[int]string    `json:"i,omitempty"`
	I8  map[int8]string   `json:"i8,omitempty"`
	I16 map[int16]string  `json:"i16,omitempty"`
	I32 map[int32]string  `json:"i32,omitempty"`
	I64 map[int64]string  `json:"i64,omitempty"`
	U   map[uint]string   `json:"u,omitempty"`
	U8  map[uint8]string  `json:"u8,omitempty"`
	U16 map[uint16]string `json:"u16,omitempty"`
	U32 map[uint32]string `json:"u32,omitempty"`
	U64 map[uint64]string `json:"u64,omitempty"`
	S   map[small][]int   `json:"s,omitempty"`
}

type small uint8

// TestIntegerMapKeysSchemaIsTheDecodersRange: `mcpgen tools` binds a map
// keyed by any integer type, signed or unsigned, and its schema accepts
// exactly the member names the arguments decoder reads as keys of that
// type (the canonical text of a value in its range: "-1" for an int,
// never "256" for a uint8); argschema derives the same schema at run time.
func TestIntegerMapKeysSchemaIsTheDecodersRange(t *testing.T) {
	pkg, err := loadFixture(t, "intkeys")
	if err != nil {
		t.Fatal(err)
	}
	in := decodeSchema(t, pkg.Tools[0].InputSchema)
	str := map[string]any{"type": "string"}
	for prop, key := range map[string]struct {
		bits   int
		signed bool
	}{"i": {64, true}, "i8": {8, true}, "i16": {16, true}, "i32": {32, true}, "i64": {64, true},
		"u": {64, false}, "u8": {8, false}, "u16": {16, false}, "u32": {32, false}, "u64": {64, false}} {
		want := map[string]any{"type": "object", "additionalProperties": str,
			"propertyNames": map[string]any{"pattern": schemapattern.IntegerKey(key.bits, key.signed)}}
		if got := at(in, "properties", prop); !reflect.DeepEqual(got, want) {
			t.Errorf("inputSchema property %s = %#v, want %#v", prop, got, want)
		}
	}
	if got := at(in, "properties", "s", "propertyNames", "pattern"); got != schemapattern.IntegerKey(8, false) {
		t.Errorf("inputSchema property s = %#v, want uint8 keys", at(in, "properties", "s"))
	}
	runtime, err := argschema.ForType[intKeysArgs]()
	if err != nil {
		t.Fatal(err)
	}
	var rt map[string]any
	if err := json.Unmarshal(runtime, &rt); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, rt) {
		t.Errorf("build-time inputSchema\n%s\ndiffers from argschema's\n%s", pkg.Tools[0].InputSchema.JSON, runtime)
	}
}

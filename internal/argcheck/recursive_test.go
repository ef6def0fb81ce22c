package argcheck

import (
	"encoding/json"
	"testing"
)

type treeNode struct {
	Name     string     `json:"name"`
	Size     int        `json:"size,omitempty"`
	Children []treeNode `json:"children,omitempty"`
}

// treeSchema is what `mcpgen tools` derives for a struct holding a
// recursive type: the type under $defs, referenced with $ref.
const treeSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
 "properties":{"root":{"$ref":"#/$defs/Node"}},"required":["root"],
 "$defs":{"Node":{"type":"object","required":["name"],"properties":{
   "name":{"type":"string","minLength":1},"size":{"type":"integer","default":1},
   "children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}}}`

// TestRecursiveSchema: validation, defaults, null-as-absent and exact
// binding follow $ref into a recursive type at any depth.
func TestRecursiveSchema(t *testing.T) {
	v, err := Compile(json.RawMessage(treeSchema))
	if err != nil {
		t.Fatal(err)
	}
	type args struct {
		Root treeNode `json:"root"`
	}
	d := NewDecoder[args](v)
	got, err := d.Decode(json.RawMessage(`{"root":{"name":"a","children":[{"name":"b","size":2.0,"children":[{"name":"c","NAME":"x","children":null}]}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	c := got.Root.Children[0].Children[0]
	if got.Root.Size != 1 || got.Root.Children[0].Size != 2 || c.Name != "c" || c.Size != 1 || c.Children != nil {
		t.Errorf("decoded %+v", got)
	}
	if _, err := d.Decode(json.RawMessage(`{"root":{"name":"a","children":[{"name":"b","children":[{"name":""}]}]}}`)); err == nil ||
		err.Error() != "invalid arguments: /root/children/0/children/0/name: length 0 is shorter than the minimum length 1" {
		t.Errorf("deep violation: %v", err)
	}
}

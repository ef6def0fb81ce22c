package argcheck

import (
	"encoding/json"
	"reflect"
	"sync"

	"github.com/mcpgen/mcpgen/internal/jsonfields"
	"github.com/mcpgen/mcpgen/internal/smallmap"
)

// decodeField is one JSON member of a struct, as encoding/json's
// typeFields finds it: the field's index path (through embedded structs)
// and whether its tag has the "string" option.
type decodeField struct {
	name   string
	index  []int
	quoted bool
	plain  bool // the field's type is plainType
	// direct and offset: the field may be stored without reflect
	// (fieldset.go).
	direct directKind
	offset uintptr
}

// smallNames is the most property or field names held as a
// smallmap.List besides their map (a schema's props, a struct's fields).
const smallNames = 8

// structFields are the members decodeStruct fills: exact names only (the
// validator saw exactly these; encoding/json would also fold case).
type structFields struct {
	byName map[string]*decodeField
	list   smallmap.List[*decodeField] // byName when there are a few (field)
}

// field is the decode field named name, nil for none.
func (f *structFields) field(name string) *decodeField {
	if f.list != nil {
		d, _ := f.list.Find(name)
		return d
	}
	return f.byName[name]
}

// fieldBytes is field(string(name)) without the conversion.
func (f *structFields) fieldBytes(name []byte) *decodeField {
	if f.list != nil {
		d, _ := f.list.FindBytes(name)
		return d
	}
	return f.byName[string(name)] // no allocation
}

var fieldCache sync.Map // reflect.Type → *structFields

// fieldsOf returns t's decode fields, computed once per type.
func fieldsOf(t reflect.Type) *structFields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*structFields)
	}
	fields := typeFields(t)
	sf := &structFields{byName: make(map[string]*decodeField, len(fields))}
	names := make([]string, len(fields))
	for i := range fields {
		sf.byName[fields[i].name] = &fields[i]
		names[i] = fields[i].name
	}
	sf.list = smallmap.New(sf.byName, names, smallNames)
	f, _ := fieldCache.LoadOrStore(t, sf)
	return f.(*structFields)
}

// typeFields are t's members by encoding/json's rules (jsonfields, which
// the result encoder reads too).
func typeFields(t reflect.Type) []decodeField {
	fields := jsonfields.TypeFields(t)
	out := make([]decodeField, len(fields))
	for i, f := range fields {
		plain := plainType(t.FieldByIndex(f.Index).Type)
		direct, offset := directOf(t, f.Index, f.Quoted, plain)
		out[i] = decodeField{name: f.Name, index: f.Index, quoted: f.Quoted, plain: plain, direct: direct, offset: offset}
	}
	return out
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	plainTypes      sync.Map // reflect.Type → bool
)

// plainType reports whether indirect hands every value of type t back as
// it is: t is neither a pointer nor an interface, and neither t nor *t is
// a json.Unmarshaler or an encoding.TextUnmarshaler. Decoding a value of
// such a type may skip indirect's walk.
func plainType(t reflect.Type) bool {
	if p, ok := plainTypes.Load(t); ok {
		return p.(bool)
	}
	k := t.Kind()
	pt := reflect.PointerTo(t)
	plain := k != reflect.Pointer && k != reflect.Interface && !pt.Implements(jsonUnmarshaler) && !pt.Implements(textUnmarshaler)
	plainTypes.Store(t, plain)
	return plain
}

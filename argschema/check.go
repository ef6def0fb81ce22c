package argschema

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/invopop/jsonschema"
)

var (
	timeType    = reflect.TypeFor[time.Time]()
	customIface = reflect.TypeFor[interface{ JSONSchema() *jsonschema.Schema }]()
)

// checkType rejects types invopop cannot express (channels, funcs, complex
// numbers, unsafe pointers) and recursive types, which cannot be inlined.
func checkType(t reflect.Type) error {
	c := checker{onPath: map[reflect.Type]bool{}, done: map[reflect.Type]bool{}}
	return c.walk(t, []string{t.String()})
}

type checker struct {
	onPath map[reflect.Type]bool
	done   map[reflect.Type]bool
}

func (c *checker) walk(t reflect.Type, path []string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if c.done[t] || t == timeType || reflect.PointerTo(t).Implements(customIface) || t.Implements(customIface) {
		return nil
	}
	switch t.Kind() {
	case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer, reflect.Uintptr:
		return fmt.Errorf("argschema: %s has type %s, which has no JSON Schema", strings.Join(path, "."), t)
	case reflect.Slice, reflect.Array:
		return c.walk(t.Elem(), path)
	case reflect.Map:
		return c.walk(t.Elem(), path)
	case reflect.Struct:
	default:
		return nil
	}
	if c.onPath[t] {
		return fmt.Errorf("argschema: recursive type %s (via %s) is not supported: schemas are fully inlined; use json.RawMessage or a map for recursive data", t, strings.Join(path, "."))
	}
	c.onPath[t] = true
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		jsonName, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		schemaTag, _, _ := strings.Cut(f.Tag.Get("jsonschema"), ",")
		if jsonName == "-" || schemaTag == "-" || (!f.Anonymous && !f.IsExported()) {
			continue
		}
		if err := c.walk(f.Type, append(path[:len(path):len(path)], f.Name)); err != nil {
			return err
		}
	}
	delete(c.onPath, t)
	c.done[t] = true
	return nil
}

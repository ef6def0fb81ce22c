package jsonscan

import (
	"reflect"
	"testing"
)

// TestParserClean fills every field of a parser and checks that clean
// leaves only what a pooled parser keeps: parseWith sets just the fields a
// parse needs on a parser from the pool, so a field clean forgot would
// leak from one parse into the next.
func TestParserClean(t *testing.T) {
	kept := map[string]bool{"names": true, "dirty": true, "scratch": true, "x": true}
	var p tapeParser
	v := reflect.ValueOf(&p).Elem()
	for k := 0; k < v.NumField(); k++ {
		f := v.Field(k)
		f = reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem() // unexported: settable through its address
		switch f.Kind() {
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.String:
			f.SetString("s")
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int:
			f.SetInt(1)
		case reflect.Uint64:
			f.SetUint(1)
		default:
			t.Fatalf("field %s of kind %v: extend this test", v.Type().Field(k).Name, f.Kind())
		}
		if f.IsZero() {
			t.Fatalf("field %s was not filled", v.Type().Field(k).Name)
		}
	}
	scratch := make([]node, 0, 4)
	p.clean(true, scratch)
	for k := 0; k < v.NumField(); k++ {
		name := v.Type().Field(k).Name
		if kept[name] {
			continue
		}
		if !v.Field(k).IsZero() {
			t.Errorf("clean left field %s set", name)
		}
	}
	if !p.dirty || cap(p.scratch) != 4 || p.x == nil || len(p.names) != 1 {
		t.Errorf("clean dropped what a parser keeps: dirty %v, scratch cap %d, x %v, names %d", p.dirty, cap(p.scratch), p.x, len(p.names))
	}
}

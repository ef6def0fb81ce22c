package mcp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/specdir"
)

// TestSpecExamplesRoundTrip decodes every example message of the spec into
// its generated type and encodes it again: the JSON must be equal (same
// members and values, order free).
func TestSpecExamplesRoundTrip(t *testing.T) {
	dir := specdir.Examples(t, mcp.ProtocolVersion)
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no examples under %s", dir)
	}
	for _, file := range files {
		typeName := filepath.Base(filepath.Dir(file))
		t.Run(typeName+"/"+filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			v, err := mcp.DecodeNamed(typeName, data)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			// Extra re-emits what it keeps, so the comparison below cannot
			// see a member decoded into the wrong place: check it here.
			for _, problem := range extraProblems(reflect.ValueOf(v), typeName) {
				t.Error(problem)
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			var want, got any
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(want, got) {
				t.Errorf("round trip changed the message\nwant %s\ngot  %s", compact(data), out)
			}
		})
	}
	t.Logf("%d examples round-tripped", len(files))
}

func compact(data []byte) string {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return string(data)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// undeclaredInExamples are members spec examples carry that the schema
// does not declare (the example, not the generated type, is off): the
// embedded input request list-roots-request.json has an "id".
var undeclaredInExamples = map[string]bool{"ListRootsRequest.id": true}

// extraProblems walks a decoded value and reports every member kept in an
// Extra: a member the struct declares must never land there, and an
// undeclared one is expected only in _meta objects and known examples.
func extraProblems(v reflect.Value, path string) []string {
	var out []string
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			out = append(out, extraProblems(v.Elem(), path)...)
		}
	case reflect.Struct:
		declared := map[string]bool{}
		for i := 0; i < v.NumField(); i++ {
			if name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
				declared[name] = true
			}
		}
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			if f.Name == "Extra" && f.Type == reflect.TypeFor[map[string]json.RawMessage]() {
				for _, k := range v.Field(i).MapKeys() {
					key := v.Type().Name() + "." + k.String()
					switch {
					case declared[k.String()]:
						out = append(out, path+": declared member "+key+" was kept in Extra")
					case !strings.HasSuffix(v.Type().Name(), "MetaObject") && !undeclaredInExamples[key]:
						out = append(out, path+": member "+key+" is not declared by the schema")
					}
				}
				continue
			}
			out = append(out, extraProblems(v.Field(i), path+"."+f.Name)...)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.Uint8 {
			for i := 0; i < v.Len(); i++ {
				out = append(out, extraProblems(v.Index(i), path+"["+strconv.Itoa(i)+"]")...)
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			out = append(out, extraProblems(v.MapIndex(k), path+"."+k.String())...)
		}
	}
	return out
}

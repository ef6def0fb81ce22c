package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/jsonrpc"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// exactArgs is the argument struct of the exact-binding tests and of
// FuzzToolReceivesValidated.
type exactArgs struct {
	Location string         `json:"location" jsonschema:"required,minLength=1"`
	Units    string         `json:"units,omitempty" jsonschema:"enum=metric,enum=imperial"`
	Days     int            `json:"days,omitempty" jsonschema:"minimum=1,maximum=14"`
	At       *exactPoint    `json:"at,omitempty"`
	Tags     []string       `json:"tags,omitempty" jsonschema:"maxItems=3"`
	Raw      []byte         `json:"raw,omitempty"`
	Labels   map[string]int `json:"labels,omitempty"`
}

type exactPoint struct {
	Lat  float64 `json:"lat" jsonschema:"required,minimum=-90,maximum=90"`
	Name string  `json:"name,omitempty" jsonschema:"maxLength=5"`
}

// exactTool returns a tool over exactArgs that records what it received,
// and its inputSchema. strict adds "additionalProperties": false at the root.
func exactTool(t testing.TB, strict bool) (*toolImpl, *[]exactArgs, json.RawMessage) {
	t.Helper()
	info := ToolInfo{Name: "exact"}
	if strict {
		schema, err := deriveSchema(reflect.TypeFor[exactArgs]())
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(schema, &m); err != nil {
			t.Fatal(err)
		}
		m["additionalProperties"] = false
		info.InputSchema, _ = json.Marshal(m)
	}
	var got []exactArgs
	tool := NewTool(info, func(_ context.Context, in exactArgs) (string, error) {
		got = append(got, in)
		return "ok", nil
	})
	if tool.t.err != nil {
		t.Fatal(tool.t.err)
	}
	var def struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(tool.t.def, &def); err != nil {
		t.Fatal(err)
	}
	return tool.t, &got, def.InputSchema
}

func callExact(t testing.TB, tool *toolImpl, args string) (string, bool) {
	t.Helper()
	out, err := tool.run(context.Background(), []byte(args), nil)
	if err != nil {
		t.Fatalf("run(%s): %v", args, err)
	}
	tt, ok := out.(*toolText)
	if !ok {
		t.Fatalf("run(%s) = %T", args, out)
	}
	return string(tt.text), tt.isError
}

// TestToolExactNames: members whose names only fold to a field's JSON name
// never fill it (encoding/json would); undeclared members are ignored by
// default and rejected under additionalProperties: false.
func TestToolExactNames(t *testing.T) {
	tool, got, _ := exactTool(t, false)
	for _, args := range []string{
		`{"location":"Oslo","Units":"imperial"}`,
		`{"location":"Oslo","UNITS":"imperial"}`,
		"{\"location\":\"Oslo\",\"unit\u017f\":\"imperial\"}", // unitſ folds to units in encoding/json
		`{"location":"Oslo","at":{"lat":1,"NAME":"toolong"}}`,
		`{"location":"Oslo","Location":"Paris"}`,
	} {
		*got = nil
		if text, isErr := callExact(t, tool, args); isErr {
			t.Errorf("%s: rejected: %s", args, text)
			continue
		}
		in := (*got)[0]
		if in.Location != "Oslo" || in.Units != "" || (in.At != nil && in.At.Name != "") {
			t.Errorf("%s: tool received %+v; case-folded members must not fill fields", args, in)
		}
	}
	strict, got, _ := exactTool(t, true)
	text, isErr := callExact(t, strict, `{"location":"Oslo","Units":"imperial"}`)
	if !isErr || len(*got) != 0 || !strings.Contains(text, "/Units: property is not allowed") {
		t.Errorf("additionalProperties false: %q isError=%v calls=%d", text, isErr, len(*got))
	}
}

// TestToolArgumentMapping: integral numbers fill integer fields, null on an
// optional field is absent, a bad base64 value names its field, repeated
// member names are rejected.
func TestToolArgumentMapping(t *testing.T) {
	tool, got, _ := exactTool(t, false)
	for args, want := range map[string]exactArgs{
		`{"location":"x","days":3.0}`:                 {Location: "x", Days: 3},
		`{"location":"x","days":1e1}`:                 {Location: "x", Days: 10},
		`{"location":"x","labels":{"a":2.0}}`:         {Location: "x", Labels: map[string]int{"a": 2}},
		`{"location":"x","units":null,"at":null}`:     {Location: "x"},
		`{"location":"x","at":{"lat":1,"name":null}}`: {Location: "x", At: &exactPoint{Lat: 1}},
	} {
		*got = nil
		if text, isErr := callExact(t, tool, args); isErr {
			t.Errorf("%s: rejected: %s", args, text)
			continue
		}
		if !reflect.DeepEqual((*got)[0], want) {
			t.Errorf("%s: got %+v, want %+v", args, (*got)[0], want)
		}
	}
	for args, want := range map[string]string{
		`{"location":"x","days":2.5}`:              "/days: expected integer, got number",
		`{"location":null}`:                        "/location: expected string, got null",
		`{"location":"x","raw":"not base64!"}`:     "/raw:",
		`{"location":"x","location":"y"}`:          `duplicate member name "location"`,
		`{"location":"x","at":{"lat":1,"lat":2}}`:  `duplicate member name "lat"`,
		`{"location":"x","labels":{"a":1,"a":-1}}`: `duplicate member name "a"`,
	} {
		*got = nil
		text, isErr := callExact(t, tool, args)
		if !isErr || len(*got) != 0 || !strings.Contains(text, want) {
			t.Errorf("%s: %q isError=%v calls=%d; want an error containing %q", args, text, isErr, len(*got), want)
		}
	}
}

// fuzzToolSeeds are arguments near every rule of exactArgs.
var fuzzToolSeeds = []string{
	`{"location":"Oslo"}`, `{"location":"Oslo","units":"metric","days":3}`, `{"location":""}`,
	`{"location":"x","Units":"bogus"}`, `{"location":"x","UNITS":"metric"}`, "{\"location\":\"x\",\"unit\u017f\":\"kelvin\"}",
	`{"LOCATION":"x"}`, `{"location":"x","days":3.0}`, `{"location":"x","days":1e400}`, `{"location":"x","days":14.000001}`,
	`{"location":"x","units":null}`, `{"location":null}`, `{"location":"x","at":{"lat":91}}`, `{"location":"x","at":{"Lat":1}}`,
	`{"location":"x","at":{"lat":1,"name":"abcdef"}}`, `{"location":"x","tags":["a","b","c","d"]}`, `{"location":"x","raw":"AAEC"}`,
	`{"location":"x","raw":"%%%"}`, `{"location":"x","labels":{"a":1.5}}`, `{"location":"x","location":"y"}`,
	`{"locat\u0069on":"x"}`, `{"location":"x","extra":{"deep":[1,2,{"units":"bogus"}]}}`, `null`, ``, `[]`,
}

// FuzzToolReceivesValidated is the differential target "a tool never
// receives a value its inputSchema rejected" (issue 11). For any arguments,
// whenever the tool body runs: (1) what it received, encoded again, passes
// its inputSchema checked independently (santhosh-tekuri on the
// encoding/json form); (2) every field holds exactly the member of the same
// exact name (or its zero value when there is none), never a member whose
// name merely folds to it; (3) under additionalProperties: false no
// undeclared member was sent.
func FuzzToolReceivesValidated(f *testing.F) {
	for _, s := range fuzzToolSeeds {
		f.Add(false, []byte(s))
		f.Add(true, []byte(s))
	}
	lax, laxGot, schema := exactTool(f, false)
	strict, strictGot, strictSchema := exactTool(f, true)
	check := func(s json.RawMessage) *jsonschema.Schema {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(s))
		if err != nil {
			f.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		c.AssertContent()
		if err := c.AddResource("urn:fuzz", doc); err != nil {
			f.Fatal(err)
		}
		sch, err := c.Compile("urn:fuzz")
		if err != nil {
			f.Fatal(err)
		}
		return sch
	}
	laxSchema, strictCompiled := check(schema), check(strictSchema)
	declared := map[string]bool{"location": true, "units": true, "days": true, "at": true, "tags": true, "raw": true, "labels": true}
	f.Fuzz(func(t *testing.T, useStrict bool, args []byte) {
		tool, got, sch := lax, laxGot, laxSchema
		if useStrict {
			tool, got, sch = strict, strictGot, strictCompiled
		}
		*got = nil
		out, err := tool.run(context.Background(), args, nil)
		if err != nil {
			t.Fatalf("run(%q): %v", args, err)
		}
		if len(*got) == 0 {
			if tt, ok := out.(*toolText); !ok || !tt.isError {
				t.Fatalf("run(%q): tool not called but no error result: %#v", args, out)
			}
			return
		}
		in := (*got)[0]
		enc, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(enc))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(doc); err != nil {
			t.Fatalf("arguments %q reached the tool as %s, which its inputSchema rejects: %v", args, enc, err)
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal(args, &members); err != nil && len(bytes.TrimSpace(args)) > 0 && string(bytes.TrimSpace(args)) != "null" {
			t.Fatalf("arguments %q reached the tool but are not a JSON object: %v", args, err)
		}
		exact := func(name string, field any) {
			var want any = reflect.Zero(reflect.TypeOf(field).Elem()).Interface()
			if raw, ok := members[name]; ok && string(raw) != "null" {
				v := reflect.New(reflect.TypeOf(field).Elem())
				if err := json.Unmarshal(normalizeInt(raw), v.Interface()); err != nil {
					t.Fatalf("arguments %q: member %q (%s) reached the tool but does not decode: %v", args, name, raw, err)
				}
				want = v.Elem().Interface()
			}
			if got := reflect.ValueOf(field).Elem().Interface(); !reflect.DeepEqual(got, want) {
				t.Fatalf("arguments %q: field %q received %#v, but the member of that exact name is %#v", args, name, got, want)
			}
		}
		exact("location", &in.Location)
		exact("units", &in.Units)
		exact("days", &in.Days)
		exact("tags", &in.Tags)
		exact("raw", &in.Raw)
		if useStrict {
			for k := range members {
				if !declared[k] {
					t.Fatalf("arguments %q: undeclared member %q reached a tool with additionalProperties false", args, k)
				}
			}
		}
	})
}

// normalizeInt writes an integral JSON number as an integer, as the binder
// does, so the oracle can decode it into an int.
func normalizeInt(raw json.RawMessage) json.RawMessage {
	var n json.Number
	if json.Unmarshal(raw, &n) != nil {
		return raw
	}
	if f, err := n.Float64(); err == nil && f == float64(int64(f)) && strings.ContainsAny(string(n), ".eE") {
		b, _ := json.Marshal(int64(f))
		return b
	}
	return raw
}

type exactCity struct {
	City string `json:"city" jsonschema:"required"`
}

// TestPromptAndTemplateExactNames: prompt arguments and template variables
// fill fields by exact JSON name only.
func TestPromptAndTemplateExactNames(t *testing.T) {
	var gotPrompt exactCity
	p := NewPrompt(PromptInfo{Name: "p"}, func(_ context.Context, in exactCity) (string, error) {
		gotPrompt = in
		return "ok", nil
	})
	if p.p.err != nil {
		t.Fatal(p.p.err)
	}
	if _, err := p.p.run(context.Background(), map[string]string{"city": "Oslo", "City": "Paris", "CITY": "Rome"}); err != nil {
		t.Fatal(err)
	}
	if gotPrompt.City != "Oslo" {
		t.Errorf("prompt received %+v, want city Oslo", gotPrompt)
	}
	if _, err := p.p.run(context.Background(), map[string]string{"City": "Paris"}); err != nil {
		t.Fatal(err)
	}
	if gotPrompt.City != "" {
		t.Errorf("prompt filled city from \"City\": %+v", gotPrompt)
	}
	var gotVars exactCity
	tpl := NewResourceTemplate(ResourceTemplateInfo{URITemplate: "w://{City}", Name: "w"}, func(_ context.Context, v exactCity) (string, error) {
		gotVars = v
		return "ok", nil
	})
	if tpl.t.err != nil {
		t.Fatal(tpl.t.err)
	}
	if _, err := tpl.t.read(context.Background(), "w://Paris", map[string]string{"City": "Paris"}); err != nil {
		t.Fatal(err)
	}
	if gotVars.City != "" {
		t.Errorf("template variable City filled field city: %+v", gotVars)
	}
}

type badReport struct {
	Units string `json:"units" jsonschema:"enum=metric,enum=imperial"`
}

// TestStructuredContentChecked: a structuredContent that does not match the
// tool's own outputSchema is never sent; the call fails with -32603 naming
// the tool and the field.
func TestStructuredContentChecked(t *testing.T) {
	tool := NewTool(ToolInfo{Name: "bad"}, func(_ context.Context, _ struct{}) (badReport, error) {
		return badReport{Units: "kelvin"}, nil
	})
	if tool.t.err != nil {
		t.Fatal(tool.t.err)
	}
	_, err := tool.t.run(context.Background(), nil, nil)
	var je interface{ Error() string }
	if err == nil {
		t.Fatal("a structuredContent outside its outputSchema was accepted")
	}
	je = err
	if msg := je.Error(); !strings.Contains(msg, `tool "bad" returned structuredContent that does not match its outputSchema`) || !strings.Contains(msg, "/units") {
		t.Errorf("error %q", msg)
	}
	good := NewTool(ToolInfo{Name: "good"}, func(_ context.Context, _ struct{}) (badReport, error) {
		return badReport{Units: "metric"}, nil
	})
	if _, err := good.t.run(context.Background(), nil, nil); err != nil {
		t.Errorf("a conforming structuredContent: %v", err)
	}
}

// TestResourceReadErrors: a template handler's plain errors map to the
// documented codes: fs.ErrNotExist → ResourceNotFound (-32602, data.uri),
// anything else → -32603 with its text.
func TestResourceReadErrors(t *testing.T) {
	tpl := NewResourceTemplate(ResourceTemplateInfo{URITemplate: "w://{city}", Name: "w"}, func(_ context.Context, v exactCity) (string, error) {
		switch v.City {
		case "atlantis":
			return "", fmt.Errorf("no city %q: %w", v.City, fs.ErrNotExist)
		case "broken":
			return "", errors.New("backend down")
		}
		return "ok", nil
	})
	_, err := tpl.t.read(context.Background(), "w://atlantis", map[string]string{"city": "atlantis"})
	if rpc := toRPCError(err); rpc.Code != jsonrpc.CodeInvalidParams || rpc.Message != "Resource not found" {
		t.Errorf("fs.ErrNotExist: %+v, want ResourceNotFound", rpc)
	}
	_, err = tpl.t.read(context.Background(), "w://broken", map[string]string{"city": "broken"})
	if rpc := toRPCError(err); rpc.Code != jsonrpc.CodeInternalError || !strings.Contains(rpc.Message, "backend down") {
		t.Errorf("plain error: %+v, want -32603 with its text", rpc)
	}
}

type plainReport struct {
	Units string `json:"units"`
}

// TestStructuredContentHandWrittenSchema: a hand-written outputSchema is
// always checked; one derived from the type without value constraints is
// satisfied by construction.
func TestStructuredContentHandWrittenSchema(t *testing.T) {
	tool := NewTool(ToolInfo{Name: "hand", OutputSchema: json.RawMessage(`{"type":"object","required":["temperature"]}`)},
		func(_ context.Context, _ struct{}) (plainReport, error) { return plainReport{Units: "metric"}, nil })
	if _, err := tool.t.run(context.Background(), nil, nil); err == nil || !strings.Contains(err.Error(), "/temperature") {
		t.Errorf("hand-written outputSchema not enforced: %v", err)
	}
	derived := NewTool(ToolInfo{Name: "derived"}, func(_ context.Context, _ struct{}) (plainReport, error) { return plainReport{}, nil })
	if _, err := derived.t.run(context.Background(), nil, nil); err != nil {
		t.Errorf("derived outputSchema: %v", err)
	}
}

type cityStore struct{ cities []string }

func (s *cityStore) complete(_ context.Context, argument, value string, _ map[string]string) ([]string, error) {
	var out []string
	for _, c := range s.cities {
		if strings.HasPrefix(c, value) {
			out = append(out, c)
		}
	}
	return out, nil
}

// TestPromptCompleteReachesState: PromptInfo.Complete (the directive's
// complete= method) runs on the server value, so it sees its state; the
// Args type's zero value could not.
func TestPromptCompleteReachesState(t *testing.T) {
	store := &cityStore{cities: []string{"Paris", "Perth", "Oslo"}}
	p := NewPrompt(PromptInfo{Name: "trip", Complete: store.complete}, func(_ context.Context, in exactCity) (string, error) { return in.City, nil })
	srv, err := New(Options{Name: "t", Version: "1", Prompts: []Prompt{p}})
	if err != nil {
		t.Fatal(err)
	}
	store.cities = append(store.cities, "Porto") // state changed after registration
	resp := srv.HandleBytes(t.Context(), []byte(`{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"ref":{"type":"ref/prompt","name":"trip"},"argument":{"name":"city","value":"P"}}}`), nil)
	if !strings.Contains(string(resp.Body), `"values":["Paris","Perth","Porto"]`) {
		t.Errorf("completion/complete: %s", resp.Body)
	}
}

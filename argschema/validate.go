package argschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Validator checks raw JSON arguments against one compiled schema. It is safe
// for concurrent use.
type Validator struct {
	schema   *jsonschema.Schema
	defaults *defaultNode // nil when the schema declares no defaults
}

// schemaURL names the in-memory resource each schema is compiled from.
const schemaURL = "urn:mcpgen:argschema"

// noLoader refuses every external reference, so compiling never touches the
// file system or the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema reference %q is not allowed", url)
}

// Compile compiles schema (JSON Schema 2020-12 unless it says otherwise) once.
// Format assertions are on (date-time, date, time, email, uri, uuid, ipv4,
// ipv6, hostname, …); unknown formats are ignored.
func Compile(schema json.RawMessage) (*Validator, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("argschema: schema is not valid JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("argschema: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("argschema: compiling schema: %w", err)
	}
	return &Validator{schema: sch, defaults: defaultsOf(doc)}, nil
}

var emptyObject = json.RawMessage(`{}`)

// Validate parses args, applies schema defaults to absent properties,
// validates the result and returns it as JSON, ready to be decoded into the
// argument struct. Absent (empty) or null args are treated as {}. When no
// default had to be applied, args is returned unchanged. A failure is a
// [*ValidationError].
func (v *Validator) Validate(args json.RawMessage) (json.RawMessage, error) {
	trimmed := bytes.Trim(args, " \t\r\n") // JSON whitespace only: "\v{}" is not JSON
	var doc any
	var err error
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		doc, args = map[string]any{}, emptyObject
	} else {
		var ok bool
		if doc, ok = parseFast(trimmed); !ok {
			doc, err = jsonschema.UnmarshalJSON(bytes.NewReader(trimmed))
		}
		if err != nil {
			return nil, &ValidationError{Problems: []Problem{{Keyword: "json", Message: "arguments are not valid JSON: " + err.Error()}}}
		}
	}
	changed := v.defaults.apply(doc)
	if err := v.schema.Validate(doc); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return nil, &ValidationError{Problems: problemsOf(ve)}
		}
		return nil, &ValidationError{Problems: []Problem{{Keyword: "schema", Message: err.Error()}}}
	}
	if !changed {
		return args, nil
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("argschema: re-encoding arguments: %w", err)
	}
	return out, nil
}

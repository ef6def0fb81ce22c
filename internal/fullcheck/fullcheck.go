// Package fullcheck is the full JSON Schema validator behind package
// fullschema: santhosh-tekuri/jsonschema, compiled for 2020-12 with
// format and content assertions and no loader, its errors flattened into
// problems. Package argcheck validates the schemas of its native subset
// itself; only a program that imports fullschema links this package (and
// pays santhosh-tekuri's package init, which compiles every draft's
// metaschema).
package fullcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Problem is one failed rule, as argcheck.Problem.
type Problem struct {
	Pointer, Keyword, Message string
}

// Schema is one compiled schema; safe for concurrent use.
type Schema struct {
	schema *jsonschema.Schema
}

// schemaURL names the in-memory resource each schema is compiled from.
const schemaURL = "urn:mcpgen:argschema"

// noLoader refuses every external reference, so compiling never touches the
// file system or the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema reference %q is not allowed", url)
}

// Compile compiles a schema document (numbers as json.Number), JSON
// Schema 2020-12 unless its $schema says otherwise, with format and
// content assertions on.
func Compile(doc any) (s *Schema, err error) {
	defer func() {
		// santhosh-tekuri panics on some numbers (a big.Rat out of range);
		// argcheck refuses those first, and this keeps any other from
		// taking the process down (a client compiles servers' schemas).
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("argschema: compiling schema: the validator failed: %v", r)
		}
	}()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.AssertContent()
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("argschema: %w", err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("argschema: compiling schema: %w", err)
	}
	return &Schema{schema: sch}, nil
}

// Validate checks a tree (map[string]any, []any, string, json.Number,
// bool, nil) and returns its problems sorted by pointer; nil when it
// conforms.
func (s *Schema) Validate(doc any) (probs []Problem) {
	defer func() {
		if r := recover(); r != nil { // as in Compile
			probs = []Problem{{Keyword: "schema", Message: fmt.Sprintf("the validator failed: %v", r)}}
		}
	}()
	err := s.schema.Validate(doc)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		return problemsOf(ve)
	}
	return []Problem{{Keyword: "schema", Message: err.Error()}}
}

var printer = message.NewPrinter(language.English)

// problemsOf flattens a santhosh-tekuri validation error into its leaves.
func problemsOf(err *jsonschema.ValidationError) []Problem {
	var out []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if k, ok := e.ErrorKind.(*kind.PropertyNames); ok {
			// santhosh-tekuri v6.0.3 gives this error its validator's
			// location slice itself, not a copy: a later sibling (the
			// next array item, the next property) validated at the same
			// depth overwrites its last token. The native checker, which
			// derived schemas use, names the member right.
			out = append(out, propertyNameProblems(e, k.Property)...)
			return
		}
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		out = append(out, leafProblems(e)...)
	}
	walk(err)
	slices.SortStableFunc(out, func(a, b Problem) int { return strings.Compare(a.Pointer, b.Pointer) })
	return slices.Compact(out)
}

// propertyNameProblems are the problems of member name, refused by the
// "propertyNames" of the object e is about: each of the name's own
// problems, at the member, as the native checker words them.
func propertyNameProblems(e *jsonschema.ValidationError, name string) []Problem {
	at := pointer(e.InstanceLocation) + "/" + escape(name)
	var own []Problem
	for _, c := range e.Causes {
		own = append(own, problemsOf(c)...)
	}
	if len(own) == 0 { // the name's schema is false
		own = []Problem{{Message: "false schema"}}
	}
	for k := range own {
		own[k] = Problem{Pointer: at, Keyword: "propertyNames", Message: "property name: " + own[k].Message}
	}
	return own
}

func leafProblems(e *jsonschema.ValidationError) []Problem {
	at := pointer(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		ps := make([]Problem, 0, len(k.Missing))
		for _, m := range k.Missing {
			ps = append(ps, Problem{Pointer: at + "/" + escape(m), Keyword: "required", Message: "required property is missing"})
		}
		return ps
	case *kind.AdditionalProperties:
		ps := make([]Problem, 0, len(k.Properties))
		for _, m := range k.Properties {
			ps = append(ps, Problem{Pointer: at + "/" + escape(m), Keyword: "additionalProperties", Message: "property is not allowed"})
		}
		return ps
	case *kind.Enum:
		return []Problem{{Pointer: at, Keyword: "enum", Message: fmt.Sprintf("value %s is not one of %s", jsonText(k.Got), jsonText(k.Want))}}
	case *kind.Type:
		return []Problem{{Pointer: at, Keyword: "type", Message: fmt.Sprintf("expected %s, got %s", strings.Join(k.Want, " or "), k.Got)}}
	case *kind.Minimum:
		return []Problem{{Pointer: at, Keyword: "minimum", Message: fmt.Sprintf("value %s is less than the minimum %s", rat(k.Got), rat(k.Want))}}
	case *kind.Maximum:
		return []Problem{{Pointer: at, Keyword: "maximum", Message: fmt.Sprintf("value %s is greater than the maximum %s", rat(k.Got), rat(k.Want))}}
	case *kind.ExclusiveMinimum:
		return []Problem{{Pointer: at, Keyword: "exclusiveMinimum", Message: fmt.Sprintf("value %s must be greater than %s", rat(k.Got), rat(k.Want))}}
	case *kind.ExclusiveMaximum:
		return []Problem{{Pointer: at, Keyword: "exclusiveMaximum", Message: fmt.Sprintf("value %s must be less than %s", rat(k.Got), rat(k.Want))}}
	case *kind.MinLength:
		return []Problem{{Pointer: at, Keyword: "minLength", Message: fmt.Sprintf("length %d is shorter than the minimum length %d", k.Got, k.Want)}}
	case *kind.MaxLength:
		return []Problem{{Pointer: at, Keyword: "maxLength", Message: fmt.Sprintf("length %d is longer than the maximum length %d", k.Got, k.Want)}}
	case *kind.Pattern:
		return []Problem{{Pointer: at, Keyword: "pattern", Message: fmt.Sprintf("value %s does not match the pattern %s", jsonText(k.Got), jsonText(k.Want))}}
	case *kind.MinItems:
		return []Problem{{Pointer: at, Keyword: "minItems", Message: fmt.Sprintf("%d items are fewer than the minimum %d", k.Got, k.Want)}}
	case *kind.MaxItems:
		return []Problem{{Pointer: at, Keyword: "maxItems", Message: fmt.Sprintf("%d items are more than the maximum %d", k.Got, k.Want)}}
	case *kind.Format:
		return []Problem{{Pointer: at, Keyword: "format", Message: fmt.Sprintf("value %s is not a valid %s", jsonText(k.Got), k.Want)}}
	}
	kw := "schema"
	if path := e.ErrorKind.KeywordPath(); len(path) > 0 {
		kw = path[0]
	}
	return []Problem{{Pointer: at, Keyword: kw, Message: e.ErrorKind.LocalizedString(printer)}}
}

// rat prints a number the way JSON would: integers without a fraction.
func rat(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func pointer(loc []string) string {
	var b strings.Builder
	for _, tok := range loc {
		b.WriteByte('/')
		b.WriteString(escape(tok))
	}
	return b.String()
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func escape(tok string) string { return pointerEscaper.Replace(tok) }

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

package argschema

import (
	"reflect"
	"strings"
	"testing"
)

type Code string

type reviewArgs struct {
	Code     Code    `json:"code" jsonschema:"required,title=Source code,description=The code to review"`
	Language *string `json:"language,omitempty" jsonschema_description:"Language, e.g. Go, Rust"`
	Style    string
	Skip     string `json:"-"`
}

func TestPromptArguments(t *testing.T) {
	got, err := PromptArguments(reflect.TypeFor[reviewArgs]())
	if err != nil {
		t.Fatal(err)
	}
	want := []PromptArg{
		{Name: "code", Title: "Source code", Description: "The code to review", Required: true},
		{Name: "language", Description: "Language, e.g. Go, Rust"},
		{Name: "Style"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	none, err := PromptArguments(reflect.TypeFor[struct{}]())
	if err != nil || len(none) != 0 || none == nil {
		t.Errorf("empty struct: %#v, %v", none, err)
	}
}

func TestPromptArgumentsErrors(t *testing.T) {
	cases := []struct {
		t    reflect.Type
		want string
	}{
		{reflect.TypeFor[struct {
			N int `json:"n"`
		}](), `prompt argument "n" of struct { N int "json:\"n\"" } is integer`},
		{reflect.TypeFor[struct {
			T []string `json:"tags"`
		}](), `prompt argument "tags"`},
		{reflect.TypeFor[struct {
			B []byte `json:"b"`
		}](), `prompt argument "b"`},
		{reflect.TypeFor[string](), "argument type string is not a struct"},
	}
	for _, c := range cases {
		_, err := PromptArguments(c.t)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("PromptArguments(%v) = %v, want %q", c.t, err, c.want)
		}
	}
}

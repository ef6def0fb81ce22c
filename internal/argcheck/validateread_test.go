package argcheck

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// TestValidateRead: ValidateRead answers as Validate when read accepts,
// shows read the parse (nil for arguments that do not parse) before any
// verdict, and answers read's refusal instead of anything else.
func TestValidateRead(t *testing.T) {
	v, err := Compile([]byte(`{"type":"object","properties":{"n":{"type":"integer","minimum":1,"default":3}}}`))
	if err != nil {
		t.Fatal(err)
	}
	refusal := errors.New("refused")
	for _, args := range []string{`{"n":2}`, `{}`, ``, `null`, `{"n":0}`, `{"n":"x"}`, `{"n":1e99999}`, `{"n":1,"n":2}`, `[`, ` {"m":[1,{"a":2}]} `} {
		want, werr := v.Validate([]byte(args))
		var shown *jsonscan.Tape
		called := 0
		got, gerr := v.ValidateRead([]byte(args), func(t *jsonscan.Tape) error { called++; shown = t; return nil })
		if called != 1 || !bytes.Equal(got, want) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("%q: read called %d times, %s %v; Validate %s %v", args, called, got, gerr, want, werr)
		}
		if parsed, perr := parseArgs([]byte(args)); (perr == nil) != (shown != nil) {
			t.Errorf("%q: shown a parse %v, the arguments parse %v", args, shown != nil, perr == nil)
		} else if perr == nil {
			releaseArgs(parsed)
		}
		if got, gerr := v.ValidateRead([]byte(args), func(*jsonscan.Tape) error { return refusal }); gerr != refusal || got != nil {
			t.Errorf("%q: read's refusal answered %s %v", args, got, gerr)
		}
	}
}

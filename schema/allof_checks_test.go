package schema

import (
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestAllOfCombinationIsCheckedLikeOneDeclaration — the int64 and format
// byte refusals ran on each declaration alone, so a property whose type
// is in one allOf member and whose enum, const or bounds are in another
// passed them: an integer enum of 1e30 generated (no int64 holds it), a
// format byte member with an enum hit "generator bug: the Go it would
// write does not compile", and array items of format byte lost their enum
// silently (elemRef left the refusal to checkKeywords). The combination is
// checked as one declaration would be.
func TestAllOfCombinationIsCheckedLikeOneDeclaration(t *testing.T) {
	for _, c := range []struct{ defs, want string }{
		{`{"T":{"allOf":[{"type":"object","properties":{"a":{"type":"integer"}}},{"type":"object","properties":{"a":{"enum":[1e30,2]}}}]}}`,
			"#/$defs/T/allOf/1/properties/a/enum/0: unsupported enum value 1e30"},
		{`{"T":{"allOf":[{"type":"object","properties":{"a":{"type":["integer","number"],"const":1e30}}},{"type":"object","properties":{"a":{"type":"integer"}}}]}}`,
			"#/$defs/T/allOf/1/properties/a/const: unsupported const 1e30"},
		{`{"T":{"allOf":[{"type":"object","properties":{"a":{"type":"integer"}}},{"type":"object","properties":{"a":{"minimum":1e30}}}]}}`,
			"#/$defs/T/allOf/1/properties/a/minimum: unsupported minimum 1e30"},
		{`{"T":{"allOf":[{"type":"object","properties":{"a":{"type":"string","format":"byte"}}},{"type":"object","properties":{"a":{"enum":["aGk="]}}}]}}`,
			"#/$defs/T/allOf/1/properties/a: unsupported enum or const on a string of format byte"},
		{`{"T":{"allOf":[{"type":"object","properties":{"a":{"type":"array","items":{"type":"string","format":"byte"}}}},{"type":"object","properties":{"a":{"items":{"enum":["aGk="]}}}}]}}`,
			"#/$defs/T/allOf/1/properties/a/items: unsupported enum or const on a string of format byte"},
	} {
		_, err := loadText(`{"$defs":` + c.defs + `}`)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load %s:\n got %v\nwant an error %q", c.defs, err, c.want)
		}
		if err != nil && strings.Count(err.Error(), "unsupported") != 1 {
			t.Errorf("Load %s: want one error, got %v", c.defs, err)
		}
	}
}

// TestLongAllOfChainIsRefusedNotAStackOverflow — a definition including
// the next through allOf, hundreds of thousands of times (a schema of
// MaxSchemaBytes holds some 450 000 such links), was merged recursively,
// one merge within the other, and overflowed the goroutine stack: a fatal
// error, not a recoverable panic. Links without properties never reached
// the flattening bound. The chain is refused beyond MaxDepth levels. The
// load runs in a child process whose stack is capped at 32 MB, which
// 40 000 links overflowed.
func TestLongAllOfChainIsRefusedNotAStackOverflow(t *testing.T) {
	const n = 40_000
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	for i := range n {
		fmt.Fprintf(&b, `"D%06d":{"type":"object","allOf":[{"$ref":"#/$defs/D%06d"}]},`, i, i+1)
	}
	fmt.Fprintf(&b, `"D%06d":{"type":"object","properties":{"x":{"type":"string"}}}}}`, n)
	text := b.String()
	loadsInTime(t, "Load of a chain of 40 000 allOfs", 0, 8*time.Second, nil, func() {
		debug.SetMaxStack(32 << 20)
		_, err := loadText(text)
		want := "#/$defs/D000" + strconv.Itoa(MaxDepth) + ": allOf chain deeper than " + strconv.Itoa(MaxDepth) + " levels"
		if err == nil || !strings.Contains(err.Error(), want) {
			fmt.Printf("Load: %.300v, want an error %q\n", err, want)
			os.Exit(1)
		}
	})
}

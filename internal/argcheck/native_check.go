package argcheck

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// checker validates one document (a tape and its shape edits) against a
// nativeSchema, collecting the problems santhosh-tekuri would report, in
// its order: a value failing "type", "const", "enum" or "format" reports
// only that; otherwise "$ref", then the keywords of its JSON type, then
// "not", "allOf", "anyOf", "oneOf".
type checker struct {
	main  *tape
	edits map[int]*objEdit // shape edits of the main tape's objects
	path  []pathTok
	probs []Problem
	quiet int // > 0: only the verdict matters (inside "not", a matched "oneOf")
	// lazy is set when main is a tape of jsonscan.ParseLazy: the items of
	// its lazy arrays are checked later, element by element
	// (lazyargs.go), or the lazy path is given up. branch > 0 inside
	// "not", "anyOf" and "oneOf", whose verdicts cannot wait.
	lazy   *lazyDefer
	branch int
	// nums replaces number literals of main by the floats the decoder
	// made of them (floatcheck.go); nil but when checking again.
	nums map[int]*floatNote
}

// pathTok is one step of the instance location: a member (its name node on
// t, or the name of an inserted default) or an array index.
type pathTok struct {
	t     *tape
	node  int // member name node, or -1
	name  string
	index int // array index, or -1
}

var checkers = sync.Pool{New: func() any { return new(checker) }}

// checkNative validates the document t (with edits) against s and returns
// its problems, sorted by pointer as problemsOf sorts santhosh-tekuri's.
func checkNative(s *nativeSchema, t *tape, edits map[int]*objEdit) []Problem {
	c := checkers.Get().(*checker)
	c.main, c.edits, c.path, c.probs, c.quiet = t, edits, c.path[:0], nil, 0
	c.validate(s, t, 0)
	probs := c.probs
	c.main, c.edits, c.probs = nil, nil, nil
	checkers.Put(c)
	if len(probs) == 0 {
		return nil
	}
	return sortProblems(probs)
}

// checkFrom validates node i of t (with edits) against s from the
// instance location path and appends its problems, unsorted, to probs;
// lazy is checkNative's lazyDefer for a tape of jsonscan.ParseLazy.
func checkFrom(s *nativeSchema, t *tape, i int, edits map[int]*objEdit, path []pathTok, lazy *lazyDefer, probs []Problem) []Problem {
	c := checkers.Get().(*checker)
	c.main, c.edits, c.path, c.probs, c.quiet, c.lazy = t, edits, append(c.path[:0], path...), probs, 0, lazy
	c.validate(s, t, i)
	probs = c.probs
	c.main, c.edits, c.probs, c.lazy = nil, nil, nil, nil
	checkers.Put(c)
	return probs
}

// sortProblems sorts problems by pointer, as problemsOf sorts
// santhosh-tekuri's, and drops repeats; nil for none.
func sortProblems(probs []Problem) []Problem {
	if len(probs) == 0 {
		return nil
	}
	slices.SortStableFunc(probs, func(a, b Problem) int { return strings.Compare(a.Pointer, b.Pointer) })
	return slices.Compact(probs)
}

// pointer renders the current instance location.
func (c *checker) pointer() string {
	var b strings.Builder
	for _, p := range c.path {
		b.WriteByte('/')
		switch {
		case p.index >= 0:
			b.WriteString(strconv.Itoa(p.index))
		case p.node >= 0:
			b.WriteString(escape(p.t.Text(p.node)))
		default:
			b.WriteString(escape(p.name))
		}
	}
	return b.String()
}

// fail records a problem at the current location (or at its child name).
func (c *checker) fail(keyword, message string) {
	if c.quiet == 0 {
		c.probs = append(c.probs, Problem{Pointer: c.pointer(), Keyword: keyword, Message: message})
	}
}

func (c *checker) failAt(child, keyword, message string) {
	if c.quiet == 0 {
		c.probs = append(c.probs, Problem{Pointer: c.pointer() + "/" + escape(child), Keyword: keyword, Message: message})
	}
}

func (c *checker) validate(s *nativeSchema, t *tape, i int) bool {
	switch s.boolean {
	case 1:
		return true
	case -1:
		c.fail("schema", "false schema")
		return false
	}
	if c.lazy != nil && !c.lazy.allows(c, s, t, i) {
		return false
	}
	k := t.Kind(i)
	if s.types != 0 && !s.types.matches(c, t, i) {
		c.fail("type", "expected "+strings.Join(s.types.names(), " or ")+", got "+kindName(k))
		return false
	}
	if s.hasConst && !c.equal(t, i, s.constVal) {
		c.fail("const", constMessage(s.constVal))
		return false
	}
	if s.hasEnum && !c.inEnum(s, t, i) {
		c.fail("enum", "value "+jsonText(c.value(t, i))+" is not one of "+jsonText(s.enum))
		return false
	}
	if s.format != nil && k == kindString && !s.format.valid(t.Text(i)) {
		c.fail("format", "value "+jsonText(t.Text(i))+" is not a valid "+s.format.name)
		return false
	}
	ok := true
	if s.ref != nil && !c.validate(s.ref, t, i) {
		ok = false
		if c.quiet > 0 {
			return false
		}
	}
	switch k {
	case kindObject:
		ok = c.object(s, t, i) && ok
	case kindArray:
		ok = c.array(s, t, i) && ok
	case kindString:
		ok = c.string(s, t, i) && ok
	case kindNumber:
		ok = c.number(s, t, i) && ok
	}
	if !ok && c.quiet > 0 {
		return false
	}
	if s.not == nil && s.allOf == nil && s.anyOf == nil && s.oneOf == nil {
		return ok // no combinator: combinators would be true
	}
	return c.combinators(s, t, i) && ok
}

func (ts jsonTypes) matches(c *checker, t *tape, i int) bool {
	var got jsonTypes
	switch t.Kind(i) {
	case kindNull:
		got = typeNull
	case kindFalse, kindTrue:
		got = typeBoolean
	case kindNumber:
		got = typeNumber
		if ts&typeNumber == 0 && ts&typeInteger != 0 && isIntegerLiteral(c.numberText(t, i)) {
			return true
		}
	case kindString:
		got = typeString
	case kindArray:
		got = typeArray
	case kindObject:
		got = typeObject
	}
	return ts&got != 0
}

func kindName(k tapeKind) string {
	switch k {
	case kindNull:
		return "null"
	case kindFalse, kindTrue:
		return "boolean"
	case kindNumber:
		return "number"
	case kindString:
		return "string"
	case kindArray:
		return "array"
	}
	return "object"
}

// isIntegerLiteral reports whether a number is an integer by JSON Schema
// (santhosh-tekuri: its exact value has no fraction; "1.0" and "1e2" are).
func isIntegerLiteral(lit string) bool {
	if !strings.ContainsAny(lit, ".eE") {
		return true
	}
	r, ok := new(big.Rat).SetString(lit)
	return ok && r.IsInt()
}

func (c *checker) inEnum(s *nativeSchema, t *tape, i int) bool {
	for _, e := range s.enum {
		if c.equal(t, i, e) {
			return true
		}
	}
	return false
}

// object checks minProperties, maxProperties, required, then each member
// against "properties" or "additionalProperties".
func (c *checker) object(s *nativeSchema, t *tape, obj int) bool {
	edit := c.editOf(t, obj)
	ok := true
	if s.minProps >= 0 || s.maxProps >= 0 {
		n := t.Len(obj)
		if edit != nil {
			n += len(edit.add) - len(edit.drop)
		}
		if s.minProps >= 0 && n < s.minProps {
			c.fail("minProperties", "minProperties: got "+groupInt(n)+", want "+groupInt(s.minProps))
			ok = false
		}
		if s.maxProps >= 0 && n > s.maxProps {
			c.fail("maxProperties", "maxProperties: got "+groupInt(n)+", want "+groupInt(s.maxProps))
			ok = false
		}
	}
	for _, name := range s.required {
		if !c.has(t, obj, edit, name) {
			c.failAt(name, "required", "required property is missing")
			ok = false
		}
	}
	if !ok && c.quiet > 0 {
		return false
	}
	if s.props == nil && s.extra == nil && !s.noExtra && s.names == nil {
		return ok
	}
	var extra []string
	for m := t.FirstMember(obj); m >= 0; m = t.NextMember(obj, m) {
		if edit.drops(m) {
			continue
		}
		var sub *nativeSchema
		found := false
		switch {
		case t.Escaped(m):
			sub, found = s.prop(t.Text(m))
		case s.propList != nil:
			sub, found = s.propList.FindBytes(t.Contents(m))
		default:
			sub, found = s.props[string(t.Contents(m))] // no allocation
		}
		if found {
			c.path = append(c.path, pathTok{t: t, node: m, index: -1})
			ok = c.validate(sub, t, m+1) && ok
			c.path = c.path[:len(c.path)-1]
		} else if s.noExtra {
			extra = append(extra, t.Text(m))
			ok = false
		} else if s.extra != nil {
			c.path = append(c.path, pathTok{t: t, node: m, index: -1})
			ok = c.validate(s.extra, t, m+1) && ok
			c.path = c.path[:len(c.path)-1]
		}
		if !ok && c.quiet > 0 {
			return false
		}
	}
	if edit != nil {
		for _, a := range edit.add {
			sub, found := s.prop(a.name)
			switch {
			case !found && s.noExtra:
				extra = append(extra, a.name)
				ok = false
				continue
			case !found:
				sub = s.extra
			}
			if sub != nil {
				c.path = append(c.path, pathTok{name: a.name, node: -1, index: -1})
				ok = c.validate(sub, a.value, 0) && ok
				c.path = c.path[:len(c.path)-1]
			}
		}
	}
	for _, name := range extra {
		c.failAt(name, "additionalProperties", "property is not allowed")
	}
	if s.names != nil {
		// After the members' values and "additionalProperties", as
		// santhosh-tekuri checks them: a member refused both ways has
		// its problems in the same order.
		ok = c.propertyNames(s.names, t, obj, edit) && ok
	}
	return ok
}

// has reports whether the object (after its edits) has the member name.
// prop is the schema of property name, and whether s declares it.
func (s *nativeSchema) prop(name string) (*nativeSchema, bool) {
	if s.propList != nil {
		return s.propList.Find(name)
	}
	sub, found := s.props[name]
	return sub, found
}

func (c *checker) has(t *tape, obj int, edit *objEdit, name string) bool {
	if m, found := t.Member(obj, name); found && !edit.drops(m-1) {
		return true
	}
	if edit != nil {
		for _, a := range edit.add {
			if a.name == name {
				return true
			}
		}
	}
	return false
}

func (c *checker) editOf(t *tape, obj int) *objEdit {
	if t != c.main || c.edits == nil {
		return nil
	}
	return c.edits[obj]
}

// array checks minItems, maxItems, uniqueItems, then each item.
func (c *checker) array(s *nativeSchema, t *tape, arr int) bool {
	ok := true
	n := t.Len(arr)
	if s.minItems >= 0 && n < s.minItems {
		c.fail("minItems", strconv.Itoa(n)+" items are fewer than the minimum "+strconv.Itoa(s.minItems))
		ok = false
	}
	if s.maxItems >= 0 && n > s.maxItems {
		c.fail("maxItems", strconv.Itoa(n)+" items are more than the maximum "+strconv.Itoa(s.maxItems))
		ok = false
	}
	if s.unique && n > 1 {
		if i, j, dup := c.duplicate(t, arr); dup {
			c.fail("uniqueItems", "items at "+groupInt(i)+" and "+groupInt(j)+" are equal")
			ok = false
		}
	}
	if !ok && c.quiet > 0 {
		return false
	}
	if s.items != nil {
		if c.lazy != nil && t.Lazy(arr) {
			c.lazy.later(c, s.items, arr)
			return ok
		}
		idx := 0
		for e := t.FirstElement(arr); e >= 0; e = t.NextElement(arr, e) {
			c.path = append(c.path, pathTok{node: -1, index: idx})
			ok = c.validate(s.items, t, e) && ok
			c.path = c.path[:len(c.path)-1]
			if !ok && c.quiet > 0 {
				return false
			}
			idx++
		}
	}
	return ok
}

// duplicate finds the first item equal to an earlier one: the earlier's
// index and its own.
func (c *checker) duplicate(t *tape, arr int) (int, int, bool) {
	var items []any
	for e := t.FirstElement(arr); e >= 0; e = t.NextElement(arr, e) {
		items = append(items, c.value(t, e))
	}
	seen := make(map[string]int, len(items))
	for i, v := range items {
		key, ok := canonical(v)
		if !ok {
			continue // a number out of big.Rat's range equals nothing
		}
		if j, dup := seen[key]; dup {
			return j, i, true
		}
		seen[key] = i
	}
	return -1, -1, false
}

// canonical encodes a value so that two values are equal by JSON Schema
// (numbers by exact value, objects regardless of member order) exactly
// when their encodings are.
func canonical(v any) (string, bool) {
	var b strings.Builder
	ok := writeCanonical(&b, v)
	return b.String(), ok
}

func writeCanonical(b *strings.Builder, v any) bool {
	switch v := v.(type) {
	case nil:
		b.WriteByte('n')
	case bool:
		if v {
			b.WriteByte('t')
		} else {
			b.WriteByte('f')
		}
	case string:
		b.WriteByte('s')
		b.WriteString(strconv.Itoa(len(v)))
		b.WriteByte(':')
		b.WriteString(v)
	case interface{ String() string }: // json.Number
		r, ok := new(big.Rat).SetString(v.String())
		if !ok {
			return false
		}
		b.WriteByte('d')
		b.WriteString(r.RatString())
		b.WriteByte(';')
	case []any:
		b.WriteByte('[')
		for _, e := range v {
			if !writeCanonical(b, e) {
				return false
			}
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for _, k := range keys {
			writeCanonical(b, k)
			if !writeCanonical(b, v[k]) {
				return false
			}
		}
		b.WriteByte('}')
	}
	return true
}

// string checks minLength and maxLength (in code points), pattern and
// contentEncoding.
func (c *checker) string(s *nativeSchema, t *tape, i int) bool {
	if s.minLength < 0 && s.maxLength < 0 && s.pattern == nil && !s.base64 {
		return true
	}
	ok := true
	var text string
	var raw []byte // the text, when it has no escapes (no copy)
	if t.Escaped(i) {
		text = t.Text(i)
		raw = []byte(text)
	} else {
		raw = t.Contents(i)
	}
	if s.minLength >= 0 || s.maxLength >= 0 {
		n := utf8.RuneCount(raw)
		if s.minLength >= 0 && n < s.minLength {
			c.fail("minLength", "length "+strconv.Itoa(n)+" is shorter than the minimum length "+strconv.Itoa(s.minLength))
			ok = false
		}
		if s.maxLength >= 0 && n > s.maxLength {
			c.fail("maxLength", "length "+strconv.Itoa(n)+" is longer than the maximum length "+strconv.Itoa(s.maxLength))
			ok = false
		}
	}
	if s.pattern != nil && !s.pattern.Match(raw) {
		c.fail("pattern", "value "+jsonText(string(raw))+" does not match the pattern "+jsonText(s.pattern.String()))
		ok = false
	}
	if s.base64 {
		if _, err := base64.StdEncoding.Decode(make([]byte, base64.StdEncoding.DecodedLen(len(raw))), raw); err != nil {
			c.fail("contentEncoding", "value is not "+quote("base64")+" encoded: "+err.Error())
			ok = false
		}
	}
	return ok
}

// number checks minimum, maximum, exclusiveMinimum, exclusiveMaximum and
// multipleOf on the number's exact value.
func (c *checker) number(s *nativeSchema, t *tape, i int) bool {
	if s.minimum == nil && s.maximum == nil && s.exMinimum == nil && s.exMaximum == nil && s.multiple == nil {
		return true
	}
	lit := t.Number(i)
	if c.nums != nil {
		lit = c.floatText(t, i)
	}
	n := literalNumber{lit: lit}
	ok := true
	check := func(b *bound, keyword string, bad func(cmp int) bool, words string) {
		if b == nil {
			return
		}
		cmp, inRange := n.cmp(b)
		switch {
		case !inRange:
			c.fail(keyword, "value "+lit+" is out of range")
			ok = false
		case bad(cmp):
			c.fail(keyword, "value "+rat(n.rat())+words+rat(b.rat))
			ok = false
		}
	}
	check(s.minimum, "minimum", func(cmp int) bool { return cmp < 0 }, " is less than the minimum ")
	check(s.maximum, "maximum", func(cmp int) bool { return cmp > 0 }, " is greater than the maximum ")
	check(s.exMinimum, "exclusiveMinimum", func(cmp int) bool { return cmp <= 0 }, " must be greater than ")
	check(s.exMaximum, "exclusiveMaximum", func(cmp int) bool { return cmp >= 0 }, " must be less than ")
	if s.multiple != nil {
		switch r := n.rat(); {
		case r == nil:
			c.fail("multipleOf", "value "+lit+" is out of range")
			ok = false
		case !new(big.Rat).Quo(r, s.multiple).IsInt():
			got, _ := r.Float64()
			want, _ := s.multiple.Float64()
			c.fail("multipleOf", "multipleOf: got "+englishFloat(got)+", want "+englishFloat(want))
			ok = false
		}
	}
	return ok
}

// literalNumber compares a number literal with bounds, as int64s when both
// are small integers, else as big.Rats (parsed once).
type literalNumber struct {
	lit    string
	r      *big.Rat
	parsed bool
}

func (n *literalNumber) rat() *big.Rat {
	if !n.parsed {
		n.r, _ = new(big.Rat).SetString(n.lit)
		n.parsed = true
	}
	return n.r
}

func (n *literalNumber) cmp(b *bound) (int, bool) {
	if b.isInt && len(n.lit) <= 18 && !strings.ContainsAny(n.lit, ".eE") {
		if v, err := strconv.ParseInt(n.lit, 10, 64); err == nil {
			switch {
			case v < b.small:
				return -1, true
			case v > b.small:
				return 1, true
			}
			return 0, true
		}
	}
	r := n.rat()
	if r == nil {
		return 0, false
	}
	return r.Cmp(b.rat), true
}

// combinators checks not, allOf, anyOf and oneOf.
func (c *checker) combinators(s *nativeSchema, t *tape, i int) bool {
	ok := true
	if s.not != nil {
		c.quiet++
		c.branch++
		matched := c.validate(s.not, t, i)
		c.branch--
		c.quiet--
		if matched {
			c.fail("schema", "'not' failed")
			ok = false
			if c.quiet > 0 {
				return false
			}
		}
	}
	for _, sub := range s.allOf {
		if !c.validate(sub, t, i) {
			ok = false
			if c.quiet > 0 {
				return false
			}
		}
	}
	if len(s.anyOf) > 0 {
		mark := len(c.probs)
		matched := false
		c.branch++
		for _, sub := range s.anyOf {
			if c.validate(sub, t, i) {
				matched = true
				break
			}
		}
		c.branch--
		if matched {
			c.probs = c.probs[:mark]
		} else {
			ok = false
			if c.quiet > 0 {
				return false
			}
		}
	}
	if len(s.oneOf) > 0 {
		mark := len(c.probs)
		first := -1
		for j, sub := range s.oneOf {
			if first >= 0 {
				c.quiet++
			}
			c.branch++
			valid := c.validate(sub, t, i)
			c.branch--
			if first >= 0 {
				c.quiet--
			}
			if !valid {
				continue
			}
			if first < 0 {
				first = j
				c.probs = c.probs[:mark]
				continue
			}
			c.fail("oneOf", "'oneOf' failed, subschemas "+groupInt(first)+", "+groupInt(j)+" matched")
			ok = false
			break
		}
		if first < 0 {
			ok = false
		}
	}
	return ok
}

// equal reports whether the value at i equals want (a schema value:
// map[string]any, []any, string, json.Number, bool, nil), as
// santhosh-tekuri's equals: numbers by exact value.
func (c *checker) equal(t *tape, i int, want any) bool {
	switch t.Kind(i) {
	case kindNull:
		return want == nil
	case kindFalse, kindTrue:
		b, ok := want.(bool)
		return ok && b == (t.Kind(i) == kindTrue)
	case kindString:
		s, ok := want.(string)
		return ok && t.TextEqual(i, s)
	case kindNumber:
		n, ok := want.(interface{ String() string })
		if !ok {
			return false
		}
		lit := c.numberText(t, i)
		if lit == n.String() && !strings.ContainsAny(lit, ".eE") {
			return true
		}
		a, ok1 := new(big.Rat).SetString(lit)
		b, ok2 := new(big.Rat).SetString(n.String())
		return ok1 && ok2 && a.Cmp(b) == 0
	case kindArray:
		list, ok := want.([]any)
		if !ok || len(list) != t.Len(i) {
			return false
		}
		j := 0
		for e := t.FirstElement(i); e >= 0; e = t.NextElement(i, e) {
			if !c.equal(t, e, list[j]) {
				return false
			}
			j++
		}
		return true
	}
	m, ok := want.(map[string]any)
	if !ok {
		return false
	}
	edit := c.editOf(t, i)
	n := t.Len(i)
	if edit != nil {
		n += len(edit.add) - len(edit.drop)
	}
	if n != len(m) {
		return false
	}
	for mem := t.FirstMember(i); mem >= 0; mem = t.NextMember(i, mem) {
		if edit.drops(mem) {
			continue
		}
		w, found := m[t.Text(mem)]
		if !found || !c.equal(t, mem+1, w) {
			return false
		}
	}
	if edit != nil {
		for _, a := range edit.add {
			w, found := m[a.name]
			if !found || !c.equal(a.value, 0, w) {
				return false
			}
		}
	}
	return true
}

// value builds the value at i (after its edits) as the tree
// jsonscan.Tree builds, for messages and for re-encoding.
func (c *checker) value(t *tape, i int) any {
	if t != c.main {
		return valueOf(t, i, nil, nil)
	}
	return valueOf(t, i, c.edits, c.nums)
}

// numberText is the literal of number node i of t, or, when checking
// again, the shortest decimal of the float the decoder made of it.
func (c *checker) numberText(t *tape, i int) string {
	if c.nums == nil {
		return t.Number(i)
	}
	return c.floatText(t, i)
}

func (c *checker) floatText(t *tape, i int) string {
	if n := c.nums[i]; n != nil && t == c.main {
		n.at = c.pointer()
		return n.shortest
	}
	return t.Number(i)
}

// valueOf is the tree of node i of t after edits, the numbers of nums
// replaced by their floats (floatNote; nil but when checking again).
func valueOf(t *tape, i int, edits map[int]*objEdit, nums map[int]*floatNote) any {
	switch t.Kind(i) {
	case kindNull:
		return nil
	case kindFalse:
		return false
	case kindTrue:
		return true
	case kindNumber:
		if n := nums[i]; n != nil {
			return json.Number(n.shortest)
		}
		return json.Number(t.Number(i))
	case kindString:
		return t.Text(i)
	case kindArray:
		a := make([]any, 0, t.Len(i))
		for e := t.FirstElement(i); e >= 0; e = t.NextElement(i, e) {
			a = append(a, valueOf(t, e, edits, nums))
		}
		return a
	}
	edit := edits[i]
	m := make(map[string]any, t.Len(i))
	for mem := t.FirstMember(i); mem >= 0; mem = t.NextMember(i, mem) {
		if !edit.drops(mem) {
			m[t.Text(mem)] = valueOf(t, mem+1, edits, nums)
		}
	}
	if edit != nil {
		for _, a := range edit.add {
			m[a.name] = valueOf(a.value, 0, nil, nil)
		}
	}
	return m
}

// constMessage is santhosh-tekuri's message for a failed "const".
func constMessage(want any) string {
	switch want.(type) {
	case []any, map[string]any:
		return "'const' failed"
	}
	return "value must be " + display(want)
}

func display(v any) string {
	if s, ok := v.(string); ok {
		return quote(s)
	}
	return fmt.Sprintf("%v", v) // json.Number's text, true, <nil>
}

// quote is santhosh-tekuri's single-quoted string.
func quote(s string) string {
	s = strconv.Quote(s)
	s = strings.ReplaceAll(s, `\"`, `"`)
	s = strings.ReplaceAll(s, `'`, `\'`)
	return "'" + s[1:len(s)-1] + "'"
}

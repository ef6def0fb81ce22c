package argcheck

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// propertyNames checks the name of every member of object obj of t,
// after its edit (a dropped member's name is not checked, a default's
// added name is), against "propertyNames" schema s.
func (c *checker) propertyNames(s *nativeSchema, t *tape, obj int, edit *objEdit) bool {
	ok := true
	for m := t.FirstMember(obj); m >= 0; m = t.NextMember(obj, m) {
		if edit.drops(m) {
			continue
		}
		if !c.propertyName(s, t, m) {
			ok = false
			if c.quiet > 0 {
				return false
			}
		}
	}
	if edit != nil {
		for _, a := range edit.add {
			if !c.addedPropertyName(s, a.name) {
				ok = false
				if c.quiet > 0 {
					return false
				}
			}
		}
	}
	return ok
}

// propertyName checks member name node m of t against "propertyNames"
// schema s. Its problems are at the member (the object's pointer and the
// name), keyword "propertyNames", each message the name's own problem
// ("property name: does not match pattern …"), as internal/fullcheck words
// santhosh-tekuri's.
func (c *checker) propertyName(s *nativeSchema, t *tape, m int) bool {
	c.path = append(c.path, pathTok{t: t, node: m, index: -1})
	start := len(c.probs)
	ok := c.validate(s, t, m)
	for k := start; k < len(c.probs); k++ {
		c.probs[k].Pointer = c.pointer()
		c.probs[k].Keyword = "propertyNames"
		c.probs[k].Message = propertyNameMessage(c.probs[k].Message)
	}
	c.path = c.path[:len(c.path)-1]
	return ok
}

// addedPropertyName is propertyName for the name of a member the shape
// adds (a property's default), which has no node of its own.
func (c *checker) addedPropertyName(s *nativeSchema, name string) bool {
	quoted, _ := json.Marshal(name)
	nt, err := jsonscan.ParseTape(quoted, 1)
	if err != nil {
		return true // unreachable: a marshaled string parses
	}
	defer nt.Release()
	return c.propertyName(s, nt, 0) // nt is not c.main: no edits apply to it
}

// propertyNameMessage is the message of a member name's problem with
// "propertyNames" given the name's own (internal/fullcheck words it
// alike).
func propertyNameMessage(nameProblem string) string {
	return "property name: " + nameProblem
}

package argcheck

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/internal/schemapattern"
)

// TestPropertyNamesNativeMatchesSanthosh: "propertyNames" (the member
// names of an integer-keyed map's schema) is checked natively, with
// santhosh-tekuri's verdict and the same problems, each at the member it
// refuses: in nested objects, array items, anyOf branches, under "not",
// and for the name of a member a property's default adds. (santhosh-tekuri
// misplaces a refused name followed by a sibling at its depth, e.g. in
// [{"a":1},{"ab":2}]: see internal/fullcheck's problemsOf.)
func TestPropertyNamesNativeMatchesSanthosh(t *testing.T) {
	uint8Keys, _ := json.Marshal(schemapattern.IntegerKey(8, false))
	schemas := []string{
		`{"type":"object","propertyNames":{"pattern":"^[a-c]+$"}}`,
		`{"propertyNames":{"maxLength":2},"additionalProperties":{"type":"integer"}}`,
		`{"propertyNames":{"enum":["a","b"]}}`,
		`{"propertyNames":false}`,
		`{"propertyNames":true,"additionalProperties":false}`,
		`{"propertyNames":{"not":{"const":"x"}}}`,
		`{"propertyNames":{"pattern":"^[a-z]$","maxLength":0}}`,
		`{"properties":{"zz":{"default":1}},"propertyNames":{"pattern":"^[a-z]$"}}`,
		`{"type":"object","properties":{"m":{"type":"object","propertyNames":{"pattern":` + string(uint8Keys) + `},"additionalProperties":{"type":"string"}}}}`,
		`{"type":"array","items":{"propertyNames":{"minLength":2}}}`,
		`{"anyOf":[{"propertyNames":{"pattern":"^a"}},{"propertyNames":{"pattern":"^b"}}]}`,
		`{"not":{"propertyNames":{"pattern":"^a"}}}`,
	}
	instances := []string{`{}`, `{"a":1}`, `{"abc":1,"d":2}`, `{"x":1}`, `{"a/b":1,"~":2,"é":3}`, `{"ab":"1"}`,
		`{"m":{"1":"a","256":"b","-1":"c","01":"d"}}`, `{"m":{"0":"a","255":"b"}}`, `[{"ab":1},{"a":2}]`, `1`, `"s"`, `null`}
	for _, schema := range schemas {
		for _, instance := range instances {
			if !compareWithSanthosh(t, []byte(schema), []byte(instance)) {
				t.Errorf("schema %s was not checked natively", schema)
			}
		}
	}
}

// TestPropertyNameProblemsFollowTheMemberProblems: santhosh-tekuri checks
// "propertyNames" after every member's value and "additionalProperties",
// so of a member refused both by its name and by its value (or as not
// allowed), the problems at its pointer come in that order; the native
// checker reports them alike, and a derived integer-keyed map's member
// "01" holding a number is told in the same words by both.
func TestPropertyNameProblemsFollowTheMemberProblems(t *testing.T) {
	intKeys, _ := json.Marshal(schemapattern.IntegerKey(64, true))
	for _, c := range []struct{ schema, instance string }{
		{`{"propertyNames":{"maxLength":1},"additionalProperties":{"type":"string"}}`, `{"ab":1}`},
		{`{"propertyNames":{"maxLength":1},"additionalProperties":false}`, `{"ab":1,"c":2}`},
		{`{"propertyNames":{"maxLength":1},"properties":{"ab":{"type":"string"}}}`, `{"ab":1,"cd":2}`},
		{`{"propertyNames":{"maxLength":1},"properties":{"ab":{"type":"string","default":1}},"additionalProperties":false}`, `{}`},
		{`{"type":"object","properties":{"m":{"type":"object","propertyNames":{"pattern":` + string(intKeys) + `},"additionalProperties":{"type":"string"}}}}`, `{"m":{"01":5,"1":"a"}}`},
	} {
		if !compareWithSanthosh(t, []byte(c.schema), []byte(c.instance)) {
			t.Errorf("schema %s was not checked natively", c.schema)
		}
	}
}

package bind

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/invopop/jsonschema"
	validator "github.com/santhosh-tekuri/jsonschema/v6"
)

// checkDefault validates a field's default against the field's own schema
// (its type, enum, bounds, pattern, format), as the runtime validator will
// see it; a default the schema rejects would make every call that omits the
// field fail. It returns a message, or "".
func checkDefault(s *jsonschema.Schema) string {
	c := *s
	c.Default = nil
	raw, err := json.Marshal(&c)
	if err != nil {
		return fmt.Sprintf("default: %v", err)
	}
	msg, ok := validateValue(raw, s.Default)
	if ok {
		return ""
	}
	def, _ := json.Marshal(s.Default)
	return fmt.Sprintf("default %s does not satisfy the field's own schema: %s", def, msg)
}

// validateValue validates v against the JSON schema raw.
func validateValue(raw []byte, v any) (string, bool) {
	doc, err := validator.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err.Error(), false
	}
	c := validator.NewCompiler()
	c.DefaultDraft(validator.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("urn:mcpgen:default", doc); err != nil {
		return err.Error(), false
	}
	sch, err := c.Compile("urn:mcpgen:default")
	if err != nil {
		return err.Error(), false
	}
	b, _ := json.Marshal(v)
	inst, err := validator.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err.Error(), false
	}
	if err := sch.Validate(inst); err != nil {
		msg := err.Error()
		if i := strings.LastIndex(msg, "\n"); i >= 0 {
			msg = strings.TrimSpace(msg[i+1:])
		}
		msg = strings.TrimPrefix(msg, "- at '': ")
		return msg, false
	}
	return "", true
}

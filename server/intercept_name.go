package server

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// targetMember is the params member a method acts on, which Request.Name
// reports: "name" for tools/call and prompts/get, "uri" for resources/read
// and resources/subscribe|unsubscribe, "taskId" for tasks/*; "" for any
// other method (see Server.targetOf for extension methods). The member is
// chosen by the method, never by which members are present: a
// resources/read naming "name":"echo" beside its uri is about the uri, and
// an interceptor deciding by Name must see what the handler reads.
func targetMember(method string) string {
	switch method {
	case "tools/call", "prompts/get":
		return "name"
	case "resources/read", "resources/subscribe", "resources/unsubscribe":
		return "uri"
	}
	if strings.HasPrefix(method, "tasks/") {
		return "taskId"
	}
	return ""
}

// targetOf is targetMember, or for an extension method the member its
// MethodInfo.Target or Params names (methodImpl.target); "" when neither
// the method nor its handler says, and Request.Name is then firstTarget.
func (s *Server) targetOf(method string) string {
	if field := targetMember(method); field != "" {
		return field
	}
	if em := s.extensions.methods[method]; em != nil {
		return em.m.target
	}
	return ""
}

// isTargetMember reports whether a params member may be Request.Name.
func isTargetMember(name string) bool {
	return name == "name" || name == "uri" || name == "taskId"
}

// firstTarget is Request.Name for a method whose target is not known: the
// first of name, uri and taskId the params hold as a string, in the order
// they are written, "" when none. Both eras read it so, from the same
// bytes, so one message has one Name.
func firstTarget(params json.RawMessage) string {
	var scan targetScan
	jsonscan.Members(params, scan.member)
	return scan.name
}

// targetScan picks Request.Name from the params members as they are read
// in order: the member field names (its value when a string, else ""),
// or with no field the first of name, uri and taskId held as a string.
type targetScan struct {
	field, name string
	done        bool
}

func (t *targetScan) member(key, value []byte) {
	if t.done || !isTargetMember(string(key)) || t.field != "" && string(key) != t.field {
		return
	}
	t.name, t.done = jsonscan.String(value)
	t.done = t.done || t.field != ""
}

// paramsTarget is the target member an extension method's Params type
// declares: the one of name, uri and taskId among the JSON names of its
// fields (as encoding/json fills them), "" when it declares none or more
// than one, or reads its own JSON (json.RawMessage, an UnmarshalJSON).
func paramsTarget(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t == rawMessageType || reflect.PointerTo(t).Implements(unmarshalerType) {
		return ""
	}
	target := ""
	for name := range fieldsOf(t) {
		if isTargetMember(name) {
			if target != "" {
				return ""
			}
			target = name
		}
	}
	return target
}

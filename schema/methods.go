package schema

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// methods finds the requests and notifications: every definition whose
// `method` property is a string const. It pairs each with its params type
// and, for requests, its result type. Two message definitions with one
// method (two requests, or a request and a notification) are an error: a
// direction definition that copies a message inline is the only
// duplicate allowed.
func (b *builder) methods(m *Model) {
	byMethod := map[string]*Type{}
	for _, t := range m.Types {
		if t.Kind != KindStruct || t.Inline {
			continue
		}
		name, ok := constString(field(t, "method"))
		if !ok {
			continue
		}
		prev := byMethod[name]
		if prev != nil && !isDirection(t) && !isDirection(prev) {
			// Two messages (two requests, or a request and a notification)
			// under one method: a receiver could not tell which one a
			// message is, and the decoders and the route would disagree.
			b.errorf(field(t, "method").Pointer, "method %q is defined twice: by %s and by %s (one method, one message definition)", name, prev.Pointer, t.Pointer)
			continue
		}
		if prev != nil && !preferMessage(t, prev) {
			continue
		}
		byMethod[name] = t
	}
	senders := b.senders(m)
	for _, name := range sortedKeys(byMethod) {
		t := byMethod[name]
		// A message is a notification when a direction union of
		// notifications lists it; one no direction lists is a notification
		// when it has no id to answer to.
		notification := senders[t][Notifications]
		if !senders[t][FromClient] && !senders[t][FromServer] {
			id := field(t, "id")
			notification = id == nil || !id.Required
		}
		md := &Method{Name: name, Type: t, Notification: notification}
		if p := field(t, "params"); p != nil && p.Type.Named != nil {
			md.Params, md.ParamsRequired, md.ParamsNullable = p.Type.Named, p.Required, p.Type.Nullable
		}
		md.FromClient = senders[t][FromClient]
		md.FromServer = senders[t][FromServer]
		if md.Notification {
			m.Notifications = append(m.Notifications, md)
		} else {
			m.Requests = append(m.Requests, md)
		}
	}
	b.pairResults(m)
}

// preferMessage decides between two definitions of one method: a message
// type (CancelledNotification) wins over a direction definition that copies
// it inline (ClientNotification).
func preferMessage(t, prev *Type) bool {
	if isDirection(t) != isDirection(prev) {
		return !isDirection(t)
	}
	return t.Name < prev.Name
}

// isDirection reports whether a definition is named like a direction
// (ClientNotification), not like a message.
func isDirection(t *Type) bool {
	return strings.HasPrefix(t.Name, "Client") || strings.HasPrefix(t.Name, "Server")
}

// senders reads the direction unions (ClientRequest, ServerNotification, …).
func (b *builder) senders(m *Model) map[*Type]map[Direction]bool {
	out := map[*Type]map[Direction]bool{}
	mark := func(t *Type, d Direction) {
		if out[t] == nil {
			out[t] = map[Direction]bool{}
		}
		out[t][d] = true
	}
	directions := map[string]Direction{}
	for k, v := range b.ov.OlderDirections {
		directions[k] = v
	}
	for k, v := range b.ov.Directions {
		directions[k] = v
	}
	for _, name := range sortedKeys(directions) {
		d, t := directions[name], m.Type(name)
		if t == nil {
			continue
		}
		b.used["Directions "+name] = true
		switch t.Kind {
		case KindUnion:
			for _, mem := range t.Union.Members {
				mark(mem.Type, d&(FromClient|FromServer))
				if d&Notifications != 0 {
					mark(mem.Type, Notifications)
				}
			}
		case KindStruct: // a direction with a single message, inlined
			if method, ok := constString(field(t, "method")); ok {
				for _, other := range m.Types {
					if other != t && !other.Inline {
						if om, ok := constString(field(other, "method")); ok && om == method {
							mark(other, d&(FromClient|FromServer))
							if d&Notifications != 0 {
								mark(other, Notifications)
							}
						}
					}
				}
			}
		}
	}
	return out
}

func field(t *Type, name string) *Field {
	for _, f := range t.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

func constString(f *Field) (string, bool) {
	if f == nil || f.Const == nil {
		return "", false
	}
	var s string
	if err := json.Unmarshal(f.Const, &s); err != nil {
		return "", false
	}
	return s, true
}

// checkRequiredCycles reports structs that contain themselves through
// required struct-valued fields, which no finite value can satisfy.
func (b *builder) checkRequiredCycles(m *Model) {
	const (
		unvisited = iota
		active
		finished
	)
	state := map[*Type]int{}
	var visit func(t *Type, path []string) bool
	visit = func(t *Type, path []string) bool {
		switch state[t] {
		case active:
			b.errorf(t.Pointer, "cycle through required fields: %s", strings.Join(append(path, t.Name), " → "))
			return true
		case finished:
			return false
		}
		state[t] = active
		defer func() { state[t] = finished }()
		for _, f := range t.Fields {
			next := f.Type.Named.Resolved()
			if f.Required && next != nil && next.Kind == KindStruct {
				if visit(next, append(path, t.Name+"."+f.Name)) {
					return true
				}
			}
		}
		return false
	}
	for _, t := range m.Types {
		if t.Kind == KindStruct && visit(t, nil) {
			return
		}
	}
}

var tsErrorConst = regexp.MustCompile(`(?m)^export const ([A-Z_]+)\s*=\s*(-\d+);`)

// errorCodes collects the JSON-RPC error codes: the five of JSON-RPC 2.0,
// every `code` const in the schema, and the error constants of schema.ts.
func errorCodes(defs map[string]*node, ts []byte) []ErrorCode {
	byCode := map[int64]ErrorCode{
		-32700: {Name: "ParseError", Code: -32700, Doc: "Invalid JSON was received."},
		-32600: {Name: "InvalidRequest", Code: -32600, Doc: "The JSON sent is not a valid request object."},
		-32601: {Name: "MethodNotFound", Code: -32601, Doc: "The method does not exist or is not available."},
		-32602: {Name: "InvalidParams", Code: -32602, Doc: "Invalid method parameters."},
		-32603: {Name: "InternalError", Code: -32603, Doc: "Internal JSON-RPC error."},
	}
	for _, m := range tsErrorConst.FindAllSubmatch(ts, -1) {
		code, err := strconv.ParseInt(string(m[2]), 10, 64)
		if err != nil {
			continue
		}
		if _, ok := byCode[code]; !ok {
			byCode[code] = ErrorCode{Name: screamingToCamel(string(m[1])), Code: code}
		}
	}
	for _, name := range sortedKeys(defs) {
		var found []int64
		findCodes(defs[name], 0, &found)
		for _, code := range found {
			ec, ok := byCode[code]
			if !ok {
				ec = ErrorCode{Name: strings.TrimSuffix(strings.TrimSuffix(name, "Response"), "Error"), Code: code}
			}
			if ec.Doc == "" {
				ec.Doc = firstSentence(defs[name].Description)
			}
			byCode[code] = ec
		}
	}
	out := make([]ErrorCode, 0, len(byCode))
	for _, ec := range byCode {
		out = append(out, ec)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code > out[j].Code })
	return out
}

func findCodes(n *node, depth int, found *[]int64) {
	if n == nil || depth > 8 {
		return
	}
	if c := n.Properties["code"]; c != nil && c.Const != nil {
		if v, err := strconv.ParseInt(string(c.Const), 10, 64); err == nil {
			*found = append(*found, v)
		}
	}
	for _, k := range sortedKeys(n.Properties) {
		findCodes(n.Properties[k], depth+1, found)
	}
	for _, p := range n.AllOf {
		findCodes(p, depth+1, found)
	}
}

func screamingToCamel(s string) string {
	var sb strings.Builder
	for _, part := range strings.Split(strings.ToLower(s), "_") {
		if part != "" {
			sb.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return sb.String()
}

func firstSentence(s string) string {
	s = strings.TrimSpace(strings.SplitN(s, "\n\n", 2)[0])
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return strings.ReplaceAll(s, "\n", " ")
}

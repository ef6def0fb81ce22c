package schemadiff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/schema"
)

// methods compares requests and notifications by method name.
func (d *differ) methods(old, new *schema.Model) {
	om, nm := methodMap(old), methodMap(new)
	for _, name := range unionKeys(om, nm) {
		o, n := om[name], nm[name]
		switch {
		case o == nil:
			d.add(Methods, Added, name, describeMethod(n))
		case n == nil:
			d.add(Methods, Removed, name, describeMethod(o))
		default:
			if ok, nk := methodKind(o), methodKind(n); ok != nk {
				d.add(Methods, Changed, name, fmt.Sprintf("%s → %s", ok, nk))
			}
			if a, b := typeName(o.Params), typeName(n.Params); a != b {
				d.add(Methods, Changed, name, fmt.Sprintf("params %s → %s", a, b))
			}
			if a, b := typeName(o.Result), typeName(n.Result); a != b {
				d.add(Methods, Changed, name, fmt.Sprintf("result %s → %s", a, b))
			}
			if a, b := senders(o), senders(n); a != b {
				d.add(Methods, Changed, name, fmt.Sprintf("sent by %s → %s", a, b))
			}
		}
	}
}

func methodMap(m *schema.Model) map[string]*schema.Method {
	out := map[string]*schema.Method{}
	for _, list := range [][]*schema.Method{m.Requests, m.Notifications} {
		for _, md := range list {
			out[md.Name] = md
		}
	}
	return out
}

func methodKind(m *schema.Method) string {
	if m.Notification {
		return "notification"
	}
	return "request"
}

func describeMethod(m *schema.Method) string {
	parts := []string{methodKind(m) + " " + m.Type.Name}
	if m.Params != nil {
		parts = append(parts, "params "+m.Params.Name)
	}
	if m.Result != nil {
		parts = append(parts, "result "+m.Result.Name)
	}
	if s := senders(m); s != "" {
		parts = append(parts, "sent by "+s)
	}
	return strings.Join(parts, ", ")
}

func senders(m *schema.Method) string {
	switch {
	case m.FromClient && m.FromServer:
		return "client and server"
	case m.FromClient:
		return "client"
	case m.FromServer:
		return "server"
	}
	return ""
}

func typeName(t *schema.Type) string {
	if t == nil {
		return "none"
	}
	return t.Name
}

// types compares named types. Inline types (named after where the schema
// declares them) are compared field by field when both revisions have
// them, but their appearing or vanishing is not reported: the field that
// holds them already is.
func (d *differ) types(old, new *schema.Model) {
	ot, nt := typeMap(old), typeMap(new)
	for _, name := range unionKeys(ot, nt) {
		o, n := ot[name], nt[name]
		switch {
		case o == nil:
			if !n.Inline {
				d.add(Types, Added, name, n.Kind.String())
				if n.Deprecated != "" {
					d.add(Deprecations, Added, name, n.Deprecated)
				}
			}
		case n == nil:
			if !o.Inline {
				d.add(Types, Removed, name, o.Kind.String())
			}
		default:
			d.compareType(o, n)
		}
	}
}

func typeMap(m *schema.Model) map[string]*schema.Type {
	out := map[string]*schema.Type{}
	for _, t := range m.Types {
		out[t.Name] = t
	}
	return out
}

func (d *differ) compareType(o, n *schema.Type) {
	name := n.Name
	if o.Deprecated == "" && n.Deprecated != "" {
		d.add(Deprecations, Added, name, n.Deprecated)
	}
	if o.Deprecated != "" && n.Deprecated == "" {
		d.add(Deprecations, Removed, name, "")
	}
	if o.Kind != n.Kind {
		d.add(Types, Changed, name, fmt.Sprintf("kind %s → %s", o.Kind, n.Kind))
		return
	}
	switch n.Kind {
	case schema.KindStruct:
		if a, b := undeclaredMembers(o), undeclaredMembers(n); a != b {
			d.add(Types, Changed, name, fmt.Sprintf("undeclared members %s → %s", a, b))
		}
		d.compareFields(o, n)
	case schema.KindEnum:
		for _, v := range removedFrom(o.Enum, n.Enum) {
			d.add(Types, Changed, name, fmt.Sprintf("enum value %q removed", v))
		}
		for _, v := range removedFrom(n.Enum, o.Enum) {
			d.add(Types, Changed, name, fmt.Sprintf("enum value %q added", v))
		}
	case schema.KindUnion:
		om, nm := memberNames(o), memberNames(n)
		for _, v := range removedFrom(om, nm) {
			d.add(Types, Changed, name, fmt.Sprintf("member %s removed", v))
		}
		for _, v := range removedFrom(nm, om) {
			d.add(Types, Changed, name, fmt.Sprintf("member %s added", v))
		}
	case schema.KindMap, schema.KindArray, schema.KindAlias, schema.KindScalar:
		if a, b := scalarString(o), scalarString(n); a != b {
			d.add(Types, Changed, name, fmt.Sprintf("type %s → %s", a, b))
		}
	case schema.KindScalarUnion:
		if a, b := primsString(o.Prims), primsString(n.Prims); a != b {
			d.add(Types, Changed, name, fmt.Sprintf("type %s → %s", a, b))
		}
	}
}

func (d *differ) compareFields(o, n *schema.Type) {
	of, nf := fieldMap(o), fieldMap(n)
	for _, fname := range unionKeys(of, nf) {
		a, b := of[fname], nf[fname]
		subject := n.Name + "." + fname
		switch {
		case a == nil:
			d.add(Fields, Added, subject, fmt.Sprintf("%s %s", requiredness(b), fieldType(b)))
			if b.Deprecated != "" {
				d.add(Deprecations, Added, subject, b.Deprecated)
			}
		case b == nil:
			d.add(Fields, Removed, subject, fmt.Sprintf("%s %s", requiredness(a), fieldType(a)))
		default:
			if x, y := fieldType(a), fieldType(b); x != y {
				d.add(Fields, Changed, subject, fmt.Sprintf("type %s → %s", x, y))
			}
			if a.Required != b.Required {
				d.add(Fields, Changed, subject, fmt.Sprintf("now %s", requiredness(b)))
			}
			if a.Deprecated == "" && b.Deprecated != "" {
				d.add(Deprecations, Added, subject, b.Deprecated)
			}
			if a.Deprecated != "" && b.Deprecated == "" {
				d.add(Deprecations, Removed, subject, "")
			}
		}
	}
}

func fieldMap(t *schema.Type) map[string]*schema.Field {
	out := map[string]*schema.Field{}
	for _, f := range t.Fields {
		out[f.Name] = f
	}
	return out
}

func requiredness(f *schema.Field) string {
	if f.Required {
		return "required"
	}
	return "optional"
}

// fieldType renders a field's type with its const, enum, format and
// bounds, so that a changed const (a method renamed, a tag changed) or a
// new minimum, which the generated decoder enforces, shows as a type
// change.
func fieldType(f *schema.Field) string {
	s := refString(f.Type)
	if f.Const != nil {
		s += " = " + string(f.Const)
	}
	if len(f.Enum) > 0 {
		s += " (" + strings.Join(quoteAll(f.Enum), " | ") + ")"
	}
	if len(f.Literals) > 0 {
		s += " (" + strings.Join(f.Literals, " | ") + ")"
	}
	if b := bounds(f.Format, f.Minimum, f.Maximum); b != "" {
		s += ", " + b
	}
	return s
}

// refString renders a type expression the way a reader of the schema would:
// ToolAnnotations, string, []ContentBlock, map[string]any, string|null.
func refString(r *schema.Ref) string {
	if r == nil {
		return "none"
	}
	var s string
	switch {
	case r.Named != nil && r.Named.Inline:
		// Inline types are named after where they were first declared,
		// which says little about them elsewhere.
		s = "inline " + r.Named.Kind.String()
	case r.Named != nil:
		s = r.Named.Name
	case r.Array != nil:
		s = "[]" + refString(r.Array)
	case r.Map != nil:
		s = "map[string]" + refString(r.Map)
	case r.Any:
		s = "any"
	default:
		s = string(r.Prim)
	}
	s += checkString(r.Check)
	if r.Nullable {
		s += "|null"
	}
	return s
}

func primsString(ps []schema.Prim) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, string(p))
	}
	slices.Sort(parts)
	return strings.Join(parts, "|")
}

func memberNames(t *schema.Type) []string {
	var out []string
	if t.Union == nil {
		return nil
	}
	for _, m := range t.Union.Members {
		out = append(out, m.Type.Name)
	}
	return out
}

// errorCodes compares error codes by number.
func (d *differ) errorCodes(old, new *schema.Model) {
	oc, nc := codeMap(old), codeMap(new)
	for _, key := range unionKeys(oc, nc) {
		o, n := oc[key], nc[key]
		switch {
		case o == nil:
			d.add(ErrorCodes, Added, key, n.Name)
		case n == nil:
			d.add(ErrorCodes, Removed, key, o.Name)
		case o.Name != n.Name:
			d.add(ErrorCodes, Changed, key, fmt.Sprintf("name %s → %s", o.Name, n.Name))
		}
	}
}

func codeMap(m *schema.Model) map[string]*schema.ErrorCode {
	out := map[string]*schema.ErrorCode{}
	for i := range m.ErrorCodes {
		out[fmt.Sprint(m.ErrorCodes[i].Code)] = &m.ErrorCodes[i]
	}
	return out
}

// unionKeys returns the keys of both maps, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// removedFrom lists the values of a that b lacks, in a's order.
func removedFrom(a, b []string) []string {
	var out []string
	for _, v := range a {
		if !slices.Contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}

func quoteAll(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}

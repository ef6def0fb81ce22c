package generator

import (
	"fmt"
	"strings"

	"github.com/mcpgen/mcpgen/schema"
)

// shapeDoc is the first sentence of a type the schema gives no
// description: what the type is, read from the schema — the message,
// params or result of a method, or its shape — never a filler line.
func (g *gen) shapeDoc(t *schema.Type) string {
	name := g.name(t)
	if g.roles == nil {
		g.roles = g.methodRoles()
	}
	if role, ok := g.roles[t]; ok {
		return name + " " + role + "."
	}
	switch t.Kind {
	case schema.KindStruct:
		var names []string
		for _, f := range t.Fields {
			if f.Name == "" || strings.ContainsAny(f.Name, "`'") {
				names = append(names, fmt.Sprintf("%q", f.Name)) // gofmt reads `` as a quote
			} else {
				names = append(names, "`"+f.Name+"`")
			}
		}
		switch {
		case len(names) == 0:
			return name + " is an object the schema declares no members of."
		case len(names) == 1:
			return name + " is an object with the member " + names[0] + "."
		case len(names) <= 8:
			return name + " is an object with the members " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + "."
		}
		return fmt.Sprintf("%s is an object with %d members, among them %s.", name, len(names), strings.Join(names[:3], ", "))
	case schema.KindUnion:
		return fmt.Sprintf("%s is one of %d types.", name, len(t.Union.Members))
	case schema.KindAlias:
		return name + " is another name for " + g.refDoc(t.Elem) + "."
	case schema.KindArray:
		return name + " is a list of " + g.refDoc(t.Elem) + "."
	case schema.KindMap:
		return name + " maps string keys to " + g.refDoc(t.Elem) + "."
	case schema.KindEnum:
		return name + " is one of the strings " + andList(quoteList(t.Enum)) + "."
	case schema.KindScalar, schema.KindScalarUnion:
		var prims []string
		for _, p := range t.Prims {
			prims = append(prims, string(p))
		}
		if len(prims) == 0 && t.Elem != nil {
			prims = append(prims, string(t.Elem.Prim))
		}
		return name + " is " + article(strings.Join(prims, " or ")) + "."
	}
	return name + " is any JSON value."
}

// methodRoles says, once per package, what each message, params and
// result type is to its method; a type that is the params or result of
// several methods (EmptyResult, NotificationParams) has no role.
func (g *gen) methodRoles() map[*schema.Type]string {
	roles := map[*schema.Type]string{}
	uses := map[*schema.Type]int{}
	methods := append(append([]*schema.Method(nil), g.m.Requests...), g.m.Notifications...)
	for _, md := range methods {
		uses[md.Params]++
		uses[md.Result]++
	}
	for _, md := range methods {
		kind := "request"
		if md.Notification {
			kind = "notification"
		}
		if _, ok := roles[md.Type]; !ok {
			roles[md.Type] = fmt.Sprintf("is the %s %s", md.Name, kind)
		}
		if md.Params != nil && uses[md.Params] == 1 {
			if _, ok := roles[md.Params]; !ok {
				roles[md.Params] = fmt.Sprintf("holds the params of the %s %s", md.Name, kind)
			}
		}
		if md.Result != nil && uses[md.Result] == 1 {
			if _, ok := roles[md.Result]; !ok {
				roles[md.Result] = fmt.Sprintf("is the result of the %s request", md.Name)
			}
		}
	}
	return roles
}

// refDoc names a type expression in a doc sentence.
func (g *gen) refDoc(r *schema.Ref) string {
	switch {
	case r == nil || r.Any:
		return "any JSON value"
	case r.Named != nil:
		return "[" + g.name(r.Named) + "]"
	case r.Array != nil:
		return "lists of " + g.refDoc(r.Array)
	case r.Map != nil:
		return "maps of " + g.refDoc(r.Map)
	case nullableElem(r):
		return string(r.Prim) + "s, each of which may be null"
	}
	return string(r.Prim) + "s"
}

// andList turns "a, b, c" into "a, b and c".
func andList(list string) string {
	if i := strings.LastIndex(list, ", "); i >= 0 {
		return list[:i] + " and " + list[i+2:]
	}
	return list
}

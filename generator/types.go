package generator

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/internal/jsonfields"
	"github.com/mcpgen/mcpgen/schema"
)

// emitTypes declares one Go type per model type.
func (g *gen) emitTypes(f *jen.File) {
	for _, t := range g.m.Types {
		switch t.Kind {
		case schema.KindStruct:
			g.emitStruct(f, t)
		case schema.KindEnum:
			g.emitEnum(f, t)
		case schema.KindScalar:
			//	type Cursor string
			f.Add(comment(g.typeDoc(t))).Type().Id(g.name(t)).Add(g.goType(t.Elem))
		case schema.KindMap:
			//	type JSONObject map[string]JSONValue
			f.Add(comment(g.typeDoc(t))).Type().Id(g.name(t)).Map(jen.String()).Add(g.elemType(t.Elem))
		case schema.KindArray:
			//	type JSONArray []JSONValue
			f.Add(comment(g.typeDoc(t))).Type().Id(g.name(t)).Index().Add(g.elemType(t.Elem))
		case schema.KindAlias:
			//	type EmptyResult = Result
			f.Add(comment(g.typeDoc(t))).Type().Id(g.name(t)).Op("=").Add(g.goType(t.Elem))
		case schema.KindAny:
			//	type JSONValue = any
			f.Add(comment(g.typeDoc(t) + "\n\nIt holds any JSON value as encoding/json decodes it into an interface.")).
				Type().Id(g.name(t)).Op("=").Any()
		case schema.KindScalarUnion:
			g.emitScalarUnion(f, t)
		case schema.KindUnion:
			// Declared in unions.go.
		}
	}
}

// typeDoc is the doc comment of a named type.
func (g *gen) typeDoc(t *schema.Type) string {
	if t.Doc == "" && t.Inline {
		return g.docs.comment("", fmt.Sprintf("%s is declared inline by the schema at %s.", g.name(t), t.Pointer), t.Deprecated)
	}
	if t.Doc == "" {
		return g.docs.comment("", g.shapeDoc(t), t.Deprecated)
	}
	return g.docs.comment(g.name(t), t.Doc, t.Deprecated)
}

// emitStruct declares an object type.
//
//	type TextContent struct {
//		Meta MetaObject `json:"_meta,omitzero"`
//		Text string     `json:"text"`
//	}
func (g *gen) emitStruct(f *jen.File, t *schema.Type) {
	fields, extra := structFields(t)
	var members []jen.Code
	for _, gf := range fields {
		if gf.Fixed {
			continue
		}
		tag := gf.Name
		switch {
		case keepsNull(gf.Field):
			// Only a nil pointer is absent: omitzero would call the IsZero
			// of a type whose empty value is null (MaybeText), and drop it.
			tag += ",omitempty"
		case !gf.Required:
			tag += ",omitzero"
		}
		if !jsonfields.ValidTag(gf.Name) {
			tag = "-" // MarshalJSON adds it by name
		}
		members = append(members, jen.Add(comment(g.fieldDoc(gf))).Id(gf.Go).Add(g.fieldType(gf.Field)).Tag(map[string]string{"json": tag}))
	}
	if extra != "" {
		members = append(members, jen.Comment(extra+" holds the members the schema does not declare, as they came.").Line().
			Id(extra).Map(jen.String()).Qual("encoding/json", "RawMessage").Tag(map[string]string{"json": "-"}))
	}
	doc := g.typeDoc(t)
	if fixed := fixedMembers(fields); fixed != "" {
		doc += "\n\nOn the wire it always carries " + fixed + "."
	}
	f.Add(comment(doc)).Type().Id(g.name(t)).Struct(members...)
}

func fixedMembers(fields []goField) string {
	var parts []string
	for _, gf := range fields {
		if gf.Fixed {
			parts = append(parts, fmt.Sprintf("%q: %s", gf.Name, gf.Const))
		}
	}
	return strings.Join(parts, ", ")
}

// fieldDoc is the doc comment of a struct field.
func (g *gen) fieldDoc(gf goField) string {
	doc := g.docs.comment("", gf.Doc, gf.Deprecated)
	var notes []string
	if len(gf.Enum) > 0 {
		if gf.Type.Nullable {
			notes = append(notes, fmt.Sprintf("One of %s, or null.", quoteList(gf.Enum)))
		} else {
			notes = append(notes, fmt.Sprintf("One of %s.", quoteList(gf.Enum)))
		}
	}
	if gf.Const != nil {
		notes = append(notes, fmt.Sprintf("When present it must be %s.", gf.Const))
	}
	if gf.Default != nil {
		notes = append(notes, fmt.Sprintf("Default: %s.", gf.Default))
	}
	if gf.Format != "" {
		notes = append(notes, fmt.Sprintf("Format: %s.", gf.Format))
	}
	if keepsNull(gf.Field) {
		notes = append(notes, "Nil when absent; null is a pointer to nil (or to an empty value).")
	}
	if len(notes) > 0 {
		if doc != "" {
			doc += "\n\n"
		}
		doc += strings.Join(notes, " ")
	}
	return doc
}

func quoteList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// emitEnum declares a string enum with a constant per value and a decoder
// that refuses other values.
//
//	type Role string
//	const ( RoleAssistant Role = "assistant"; RoleUser Role = "user" )
func (g *gen) emitEnum(f *jen.File, t *schema.Type) {
	doc := g.typeDoc(t)
	if t.Nullable {
		doc += fmt.Sprintf("\n\nIt may be null: the empty %s stands for null, on decoding and encoding.", g.name(t))
	}
	f.Add(comment(doc)).Type().Id(g.name(t)).String()
	var consts []jen.Code
	for i, v := range t.Enum {
		consts = append(consts, jen.Comment(fmt.Sprintf("%s is the %s %q.", g.id.enum[t][i], g.name(t), v)).Line().
			Id(g.id.enum[t][i]).Id(g.name(t)).Op("=").Lit(v))
	}
	f.Const().Defs(consts...)
	var cases []jen.Code
	for i := range t.Enum {
		cases = append(cases, jen.Id(g.id.enum[t][i]))
	}
	if t.Nullable {
		cases = append(cases, jen.Lit("")) // null
	}
	//	func (v Role) Valid() bool
	f.Comment(fmt.Sprintf("Valid reports whether v is one of the values the schema allows for %s.", g.name(t)))
	f.Func().Params(jen.Id("v").Id(g.name(t))).Id("Valid").Params().Bool().Block(
		jen.Switch(jen.Id("v")).Block(jen.Case(cases...).Block(jen.Return(jen.True()))),
		jen.Return(jen.False()),
	)
}

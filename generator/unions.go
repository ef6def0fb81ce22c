package generator

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/schema"
)

// emitUnions declares each union as a sealed interface, marks its members,
// and writes its decoder.
func (g *gen) emitUnions(f *jen.File) {
	for _, t := range g.m.Types {
		if t.Kind == schema.KindUnion {
			g.emitUnion(f, t)
		}
	}
}

// memberGo is how a member appears in Go: *TextContent, or a slice type by
// value.
func (g *gen) memberGo(t *schema.Type) string {
	if t.Kind == schema.KindStruct {
		return "*" + g.name(t)
	}
	return g.name(t)
}

// marker is the unexported method that seals a union.
func (g *gen) marker(t *schema.Type) string { return "is" + g.name(t) }

// emitUnion declares one union.
//
//	type ContentBlock interface{ isContentBlock() }
//	func (*TextContent) isContentBlock() {}
//	func DecodeContentBlock(data []byte) (ContentBlock, error) { … }
func (g *gen) emitUnion(f *jen.File, t *schema.Type) {
	u := t.Union
	var names []string
	for _, m := range u.Members {
		names = append(names, g.memberGo(m.Type))
	}
	doc := g.typeDoc(t) + "\n\nIt is sealed: its values are " + strings.Join(names, ", ") + "."
	switch {
	case u.Discriminator != "":
		doc += fmt.Sprintf(" The %q member tells them apart.", u.Discriminator)
	default:
		doc += " Decoding tells them apart by their shape."
	}
	f.Add(comment(doc)).Type().Id(g.name(t)).Interface(jen.Id(g.marker(t)).Params())
	for _, m := range u.Members {
		recv := jen.Op("*").Id(g.name(m.Type))
		if m.Type.Kind != schema.KindStruct {
			recv = jen.Id(g.name(m.Type))
		}
		f.Func().Params(recv).Id(g.marker(t)).Params().Block()
	}
	if u.Discriminator != "" {
		g.emitTagDecoder(f, t)
	} else {
		g.emitShapeDecoder(f, t)
	}
}

// decodeMember is the call that decodes data as one member.
func (g *gen) decodeMember(union, member *schema.Type) *jen.Statement {
	fn := "decodeMember"
	if member.Kind != schema.KindStruct {
		fn = "decodeValueMember"
	}
	return jen.Id(fn).Index(jen.List(jen.Id(g.name(member)), jen.Id(g.name(union)))).Call(jen.Id("data"))
}

// emitTagDecoder decodes a union by its discriminator member. Its members
// that are no structs are tried by the JSON kind of the input: an array as
// each array member in turn, the first that decodes it winning; an object
// that the member its tag names does not decode (or that has no tag, or a
// tag no member has) as each map member in turn, so that a union of a
// tagged struct and a map of strings still decodes {"x":"y"}. When none
// decodes the input, the error is the one of the first array member, or
// the one the tag gives.
func (g *gen) emitTagDecoder(f *jen.File, t *schema.Type) {
	u := t.Union
	var arrays, maps []*schema.Type
	for _, m := range u.Members {
		switch {
		case m.Type.Kind == schema.KindStruct:
		case m.Type.Kind == schema.KindMap:
			maps = append(maps, m.Type)
		default:
			arrays = append(arrays, m.Type)
		}
	}
	var arrayCase, body []jen.Code
	if len(arrays) > 0 {
		arrayCase = append(arrayCase, jen.If(jen.Id("jsonKind").Call(jen.Id("data")).Op("==").LitRune('a')).Block(g.tryMembers(t, arrays)...))
	}
	var tags []jen.Code
	body = append(body,
		jen.List(jen.Id("tag"), jen.Id("present"), jen.Err()).Op(":=").Id("tagOf").Call(jen.Id("data"), jen.Lit(u.Discriminator)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
	)
	var cases []jen.Code
	for _, m := range u.Members {
		if m.Type.Kind != schema.KindStruct {
			continue
		}
		tags = append(tags, jen.Lit(m.Tag))
		cases = append(cases, jen.Case(jen.Lit(m.Tag)).Block(jen.Return(g.decodeMember(t, m.Type))))
	}
	body = append(body, jen.Switch(jen.Id("tag")).Block(cases...))
	missing := jen.Return(jen.Nil(), jen.Op("&").Id("DecodeError").Values(jen.Dict{
		jen.Id("Path"): jen.Lit(u.Discriminator), jen.Id("Msg"): jen.Lit("missing required member"),
	}))
	if u.Default != nil {
		missing = jen.Return(g.decodeMember(t, u.Default.Type))
	}
	body = append(body,
		jen.If(jen.Op("!").Id("present")).Block(missing),
		jen.Return(jen.Nil(), jen.Op("&").Id("DecodeError").Values(jen.Dict{
			jen.Id("Path"): jen.Lit(u.Discriminator),
			jen.Id("Msg"):  jen.Qual("fmt", "Sprintf").Call(jen.Lit("unknown value %q (want one of %q)"), jen.Id("tag"), jen.Index().String().Values(tags...)),
		})),
	)
	if len(maps) > 0 {
		// The tag decoder becomes a closure; an object it refuses is tried
		// as each map member.
		var retry []jen.Code
		for _, m := range maps {
			retry = append(retry, jen.If(jen.List(jen.Id("v"), jen.Err()).Op(":=").Add(g.decodeMember(t, m)), jen.Err().Op("==").Nil()).Block(
				jen.Return(jen.Id("v"), jen.Nil()),
			))
		}
		body = append([]jen.Code{
			jen.Id("byTag").Op(":=").Func().Params().Params(jen.Id(g.name(t)), jen.Error()).Block(body...),
			jen.List(jen.Id("v"), jen.Id("tagErr")).Op(":=").Id("byTag").Call(),
			jen.If(jen.Id("tagErr").Op("==").Nil().Op("||").Id("jsonKind").Call(jen.Id("data")).Op("!=").LitRune('o')).Block(
				jen.Return(jen.Id("v"), jen.Id("tagErr")),
			),
		}, retry...)
		body = append(body, jen.Return(jen.Nil(), jen.Id("tagErr")))
	}
	body = append(arrayCase, body...)
	doc := fmt.Sprintf("Decode%s decodes %s by its %q member.", g.name(t), article(g.name(t)), u.Discriminator)
	if u.Default != nil {
		doc += fmt.Sprintf(" Without it, the value is %s.", article(g.memberGo(u.Default.Type)))
	}
	if len(arrays) > 1 {
		doc += fmt.Sprintf(" An array is decoded as %s.", g.memberList(arrays))
	}
	if len(maps) > 0 {
		doc += fmt.Sprintf(" An object that member does not decode is decoded as %s.", g.memberList(maps))
	}
	f.Comment(doc)
	f.Func().Id("Decode"+g.name(t)).Params(jen.Id("data").Index().Byte()).Params(jen.Id(g.name(t)), jen.Error()).Block(body...)
}

// tryMembers decodes data as each of members in turn and returns the
// first that decodes it, or the error of the first; one member is returned
// as it decodes.
func (g *gen) tryMembers(union *schema.Type, members []*schema.Type) []jen.Code {
	if len(members) == 1 {
		return []jen.Code{jen.Return(g.decodeMember(union, members[0]))}
	}
	out := []jen.Code{
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Add(g.decodeMember(union, members[0])),
		jen.If(jen.Err().Op("==").Nil()).Block(jen.Return(jen.Id("v"), jen.Nil())),
	}
	for _, m := range members[1:] {
		out = append(out, jen.If(jen.List(jen.Id("v"), jen.Id("err2")).Op(":=").Add(g.decodeMember(union, m)), jen.Id("err2").Op("==").Nil()).Block(
			jen.Return(jen.Id("v"), jen.Nil()),
		))
	}
	return append(out, jen.Return(jen.Nil(), jen.Err()))
}

// memberList names the members a decoder tries, for its doc: "A", or
// "A or B, the first that fits".
func (g *gen) memberList(members []*schema.Type) string {
	names := make([]string, len(members))
	for i, m := range members {
		names[i] = g.memberGo(m)
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + ", the first that fits"
}

// emitShapeDecoder decodes a union by the shape of the JSON: the members
// whose required members and constants fit are tried, best fit first.
func (g *gen) emitShapeDecoder(f *jen.File, t *schema.Type) {
	shapes := g.id.shapes[t]
	var lits []jen.Code
	for _, m := range t.Union.Members {
		lits = append(lits, shapeLit(m.Shape))
	}
	f.Comment(fmt.Sprintf("%s describe the members of %s for its decoder, in member order.", shapes, g.name(t)))
	f.Var().Id(shapes).Op("=").Index().Id("shape").Values(lits...)

	var cases []jen.Code
	var names []string
	for i, m := range t.Union.Members {
		names = append(names, g.name(m.Type))
		cases = append(cases, jen.Case(jen.Lit(i)).Block(jen.List(jen.Id("v"), jen.Err()).Op("=").Add(g.decodeMember(t, m.Type))))
	}
	f.Comment(fmt.Sprintf("Decode%s decodes %s by its shape.", g.name(t), article(g.name(t))))
	f.Func().Id("Decode"+g.name(t)).Params(jen.Id("data").Index().Byte()).Params(jen.Id(g.name(t)), jen.Error()).Block(
		jen.Var().Id("first").Error(),
		jen.For(jen.List(jen.Id("_"), jen.Id("i")).Op(":=").Range().Id("candidates").Call(jen.Id("data"), jen.Id(shapes))).Block(
			jen.Var().Id("v").Id(g.name(t)),
			jen.Var().Err().Error(),
			jen.Switch(jen.Id("i")).Block(cases...),
			jen.If(jen.Err().Op("==").Nil()).Block(jen.Return(jen.Id("v"), jen.Nil())),
			jen.If(jen.Id("first").Op("==").Nil()).Block(jen.Id("first").Op("=").Err()),
		),
		jen.If(jen.Id("first").Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Id("first"))),
		jen.Return(jen.Nil(), jen.Op("&").Id("DecodeError").Values(jen.Dict{
			jen.Id("Msg"): jen.Lit(fmt.Sprintf("matches no member of %s (%s)", g.name(t), strings.Join(names, ", "))),
		})),
	)
}

// shapeLit writes a shape as a composite literal.
func shapeLit(s *schema.Shape) jen.Code {
	kind := map[string]rune{"object": 'o', "array": 'a', "string": 's', "number": 'n', "integer": 'n', "boolean": 'b'}[s.JSON]
	d := jen.Dict{jen.Id("kind"): jen.LitRune(kind)}
	if len(s.Required) > 0 {
		d[jen.Id("required")] = strList(s.Required)
	}
	if len(s.Props) > 0 {
		d[jen.Id("props")] = strList(s.Props)
	}
	if len(s.Consts) > 0 {
		consts := jen.Dict{}
		for k, vals := range s.Consts {
			var lits []string
			for _, v := range vals {
				lits = append(lits, string(compactJSON(v)))
			}
			consts[jen.Lit(k)] = strList(lits)
		}
		d[jen.Id("consts")] = jen.Map(jen.String()).Index().String().Values(consts)
	}
	if len(s.Nested) > 0 {
		nested := jen.Dict{}
		for k, n := range s.Nested {
			nested[jen.Lit(k)] = jen.Op("&").Id("shape").Add(shapeLit(n))
		}
		d[jen.Id("nested")] = jen.Map(jen.String()).Op("*").Id("shape").Values(nested)
	}
	return jen.Values(d)
}

func strList(values []string) jen.Code {
	lits := make([]jen.Code, len(values))
	for i, v := range values {
		lits[i] = jen.Lit(v)
	}
	return jen.Index().String().Values(lits...)
}

// emitScalarUnion declares a primitive that may have several JSON types.
//
//	type RequestId struct{ Value any }
func (g *gen) emitScalarUnion(f *jen.File, t *schema.Type) {
	var goTypes, kinds []string
	absent := "nil when absent"
	for _, p := range t.Prims {
		kinds = append(kinds, string(p))
		if p == schema.Null {
			absent = "nil when absent or null"
			continue
		}
		goTypes = append(goTypes, article(primType(p).GoString()))
	}
	f.Add(comment(g.typeDoc(t))).Type().Id(g.name(t)).Struct(
		jen.Comment("Value is " + strings.Join(goTypes, ", ") + ", or " + absent + ".").Line().Id("Value").Any(),
	)
	allowed := jen.Index().String().Values(func() []jen.Code {
		out := make([]jen.Code, len(kinds))
		for i, k := range kinds {
			out[i] = jen.Lit(k)
		}
		return out
	}()...)
	f.Comment("IsZero reports whether v holds no value.")
	f.Func().Params(jen.Id("v").Id(g.name(t))).Id("IsZero").Params().Bool().Block(jen.Return(jen.Id("v").Dot("Value").Op("==").Nil()))
	f.Comment("String formats the value.")
	f.Func().Params(jen.Id("v").Id(g.name(t))).Id("String").Params().String().Block(jen.Return(jen.Qual("fmt", "Sprint").Call(jen.Id("v").Dot("Value"))))
	if len(t.Alternatives) > 0 {
		g.emitAlternatives(f, t, allowed)
		return
	}
	f.Comment(fmt.Sprintf("MarshalJSON encodes the value, which must be one of the types %s allows.", g.name(t)))
	f.Func().Params(jen.Id("v").Id(g.name(t))).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("marshalScalar").Call(jen.Id("v").Dot("Value"), jen.Lit(g.name(t)), allowed)),
	)
	f.Comment(fmt.Sprintf("UnmarshalJSON decodes %s and refuses JSON types the schema does not allow.", article(g.name(t))))
	f.Func().Params(jen.Id("v").Op("*").Id(g.name(t))).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.List(jen.Id("value"), jen.Err()).Op(":=").Id("unmarshalScalar").Call(jen.Id("data"), allowed),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Id("v").Dot("Value").Op("=").Id("value"),
		jen.Return(jen.Nil()),
	)
}

// emitAlternatives writes the coding methods of a scalar union whose
// members (anyOf/oneOf) narrow their values: a table of the members, each
// with its JSON types, literals and bounds, that the decoder and the
// encoder check every value against.
//
//	var uMembers = []alternative{{at: "anyOf/0", types: []string{"string"}, literals: []string{`"a"`}}, …}
func (g *gen) emitAlternatives(f *jen.File, t *schema.Type, allowed jen.Code) {
	table := g.membersVar(t)
	var lits []jen.Code
	for _, a := range t.Alternatives {
		d := jen.Dict{jen.Id("at"): jen.Lit(a.At)}
		types := make([]string, len(a.Types))
		for i, p := range a.Types {
			types[i] = string(p)
		}
		d[jen.Id("types")] = strList(types)
		if a.Literals != nil {
			d[jen.Id("literals")] = strList(a.Literals)
		}
		if a.Minimum != nil || a.Maximum != nil {
			d[jen.Id("bounds")] = jen.Op("&").Add(boundsValue(a.Minimum, a.Maximum))
		}
		lits = append(lits, jen.Values(d))
	}
	kw := "anyOf"
	if t.OneOf {
		kw = "oneOf"
	}
	f.Comment(fmt.Sprintf("%s are the members (%s) of %s, which every value is checked against.", table, kw, g.name(t)))
	f.Var().Id(table).Op("=").Index().Id("alternative").Values(lits...)
	f.Comment(fmt.Sprintf("MarshalJSON encodes the value, which must be one of the types %s allows and fit %s of its members.", g.name(t), map[bool]string{false: "one", true: "exactly one"}[t.OneOf]))
	f.Func().Params(jen.Id("v").Id(g.name(t))).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("marshalAlternatives").Call(jen.Id("v").Dot("Value"), jen.Lit(g.name(t)), allowed, jen.Id(table), jen.Lit(t.OneOf))),
	)
	f.Comment(fmt.Sprintf("UnmarshalJSON decodes %s and refuses values none of its members takes%s.", article(g.name(t)), map[bool]string{false: "", true: " or more than one takes"}[t.OneOf]))
	f.Func().Params(jen.Id("v").Op("*").Id(g.name(t))).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.List(jen.Id("value"), jen.Err()).Op(":=").Id("unmarshalAlternatives").Call(jen.Id("data"), allowed, jen.Id(table), jen.Lit(t.OneOf)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Id("v").Dot("Value").Op("=").Id("value"),
		jen.Return(jen.Nil()),
	)
}

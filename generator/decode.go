package generator

import (
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/schema"
)

const encodingJSON = "encoding/json"

// emitDecoders writes UnmarshalJSON for every struct, enum, integer or
// narrowed scalar, and array or map type whose elements are not plain
// (unions, structs, integers…) or are narrowed.
func (g *gen) emitDecoders(f *jen.File) {
	for _, t := range g.m.Types {
		switch t.Kind {
		case schema.KindStruct:
			g.emitStructDecoder(f, t)
		case schema.KindEnum:
			g.emitEnumDecoder(f, t)
		case schema.KindScalar:
			if hasScalarDecoder(t) {
				g.emitScalarDecoder(f, t)
			}
		case schema.KindArray, schema.KindMap:
			if g.hasCollectionDecoder(t) {
				g.emitCollectionDecoder(f, t)
			}
		}
	}
}

// emitStructDecoder writes UnmarshalJSON for a struct: it splits the
// object into its members once, then decodes each declared member with its
// path, so that a missing required member or a wrong constant is an error
// naming the member; the members left over are kept in Extra.
//
//	func (x *TextContent) UnmarshalJSON(data []byte) error {
//		var raw [4]json.RawMessage
//		rest, err := split(data, textContentMembers, raw[:])
//		…
//		var fs fields
//		required(&fs, raw[2], &x.Text, "text", str)
//		constant(&fs, raw[3], `"text"`, "type", true)
//		x.Extra = keep(&fs, rest)
//		return fs.err
//	}
func (g *gen) emitStructDecoder(f *jen.File, t *schema.Type) {
	fields, extra := structFields(t)
	names := g.membersVar(t)
	f.Comment(fmt.Sprintf("%s are the members the schema declares for %s.", names, g.name(t)))
	f.Var().Id(names).Op("=").Add(strList(declaredNames(t)))
	body := []jen.Code{
		jen.Var().Id("raw").Index(jen.Lit(len(fields))).Qual(encodingJSON, "RawMessage"),
		jen.List(jen.Id("rest"), jen.Err()).Op(":=").Id("split").Call(jen.Id("data"), jen.Id(names), jen.Id("raw").Index(jen.Empty(), jen.Empty())),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Op("*").Id("x").Op("=").Id(g.name(t)).Values(),
		jen.Var().Id("fs").Id("fields"),
	}
	for i, gf := range fields {
		raw := jen.Id("raw").Index(jen.Lit(i))
		switch {
		case gf.Fixed:
			body = append(body, jen.Id("constant").Call(jen.Op("&").Id("fs"), raw, jen.Lit(string(compactJSON(gf.Const))), jen.Lit(gf.Name), jen.True()))
			continue
		case gf.Const != nil:
			body = append(body, jen.Id("constant").Call(jen.Op("&").Id("fs"), raw, jen.Lit(string(compactJSON(gf.Const))), jen.Lit(gf.Name), jen.False()))
		}
		mayBeNull := gf.Type.Nullable || admitsNull(gf.Type)
		var fn string
		switch {
		case (!gf.Required || gf.Tag != "") && mayBeNull:
			fn = "optional"
		case !gf.Required || gf.Tag != "":
			fn = "optionalNotNull" // absent is allowed, null is not a value
		case mayBeNull:
			fn = "requiredOrNull" // present, but null is a value
		default:
			fn = "required"
		}
		dec := g.decoderFor(gf.Type, pointerField(gf.Field))
		if keepsNull(gf.Field) {
			dec = jen.Id("nullKept").Call(dec) // null is a value, not absence
		}
		body = append(body, jen.Id(fn).Call(jen.Op("&").Id("fs"), raw, jen.Op("&").Id("x").Dot(gf.Go), jen.Lit(gf.Name), dec))
		if gf.Tag != "" && !pointerField(gf.Field) {
			// basic/index: an absent resultType MUST be treated as "complete".
			body = append(body, jen.If(jen.Add(raw.Clone()).Op("==").Nil()).Block(jen.Id("x").Dot(gf.Go).Op("=").Lit(gf.Tag)))
		}
		var present jen.Code = jen.True()
		if !gf.Required {
			present = raw.Clone().Op("!=").Nil() // a present "" is a value, not absence
		}
		for _, check := range g.valueChecks(gf, present) {
			body = append(body, jen.Id("fs").Dot("check").Call(check))
		}
	}
	switch {
	case extra != "" && t.Extra != nil:
		// additionalProperties has a schema: each undeclared member must fit it.
		dec := g.decoderFor(t.Extra, nullableElem(t.Extra))
		if r := g.ruleFor(t.Extra); r != nil {
			dec = jen.Id("checkedBy").Call(dec, r) // the schema narrows the values too
		}
		body = append(body, jen.Id("x").Dot(extra).Op("=").Id("keepChecked").Call(jen.Op("&").Id("fs"), jen.Id("rest"), dec))
	case extra != "":
		body = append(body, jen.Id("x").Dot(extra).Op("=").Id("keep").Call(jen.Op("&").Id("fs"), jen.Id("rest")))
	default:
		body = append(body, jen.Id("refuse").Call(jen.Op("&").Id("fs"), jen.Id("rest")))
	}
	body = append(body, jen.Return(jen.Id("fs").Dot("err")))
	f.Comment(fmt.Sprintf("UnmarshalJSON decodes %s, reporting a missing required member or a wrong constant by its path.", article(g.name(t))))
	f.Func().Params(jen.Id("x").Op("*").Id(g.name(t))).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(body...)
}

// admitsNull reports whether a type takes JSON null as a value: any value
// (the schema gives no type), a scalar union with "null", an enum listing
// null.
func admitsNull(r *schema.Ref) bool {
	if r.Any {
		return true
	}
	if r.Named == nil {
		return false
	}
	t := resolve(r.Named)
	return t.Kind == schema.KindAny || t.Kind == schema.KindScalarUnion && slices.Contains(t.Prims, schema.Null) || t.Kind == schema.KindEnum && t.Nullable
}

// membersVar names the list of a struct's declared members.
func (g *gen) membersVar(t *schema.Type) string { return g.id.members[t] }

// emitEnumDecoder writes UnmarshalJSON for an enum, refusing other values.
func (g *gen) emitEnumDecoder(f *jen.File, t *schema.Type) {
	values := make([]jen.Code, len(t.Enum))
	for i, v := range t.Enum {
		values[i] = jen.Lit(v)
	}
	var null jen.Code = jen.Null()
	invalid := jen.Op("!").Id(g.name(t)).Call(jen.Id("s")).Dot("Valid").Call()
	if t.Nullable {
		// null is the empty value; "" on the wire is not a value.
		null = jen.If(jen.Id("isNull").Call(jen.Id("data"))).Block(jen.Op("*").Id("v").Op("=").Lit(""), jen.Return(jen.Nil()))
		invalid = jen.Id("s").Op("==").Lit("").Op("||").Add(invalid)
	}
	f.Comment(fmt.Sprintf("UnmarshalJSON decodes %s and refuses values the schema does not list.", article(g.name(t))))
	f.Func().Params(jen.Id("v").Op("*").Id(g.name(t))).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		null,
		jen.Var().Id("s").String(),
		jen.If(jen.Err().Op(":=").Qual(encodingJSON, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("s")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(invalid).Block(
			jen.Return(jen.Op("&").Id("DecodeError").Values(jen.Dict{
				jen.Id("Msg"): jen.Qual("fmt", "Sprintf").Call(jen.Lit("%q is not one of %q"), jen.Id("s"), jen.Index().String().Values(values...)),
			})),
		),
		jen.Op("*").Id("v").Op("=").Id(g.name(t)).Call(jen.Id("s")),
		jen.Return(jen.Nil()),
	)
}

// emitScalarDecoder writes UnmarshalJSON for a named scalar whose value
// the schema narrows (an integer, number or boolean enum, a const, a
// minimum or maximum), refusing other values, and for every integer (1.0
// is one, which encoding/json refuses).
func (g *gen) emitScalarDecoder(f *jen.File, t *schema.Type) {
	var body []jen.Code
	if t.Elem.Prim == schema.Integer {
		body = append(body,
			jen.List(jen.Id("x"), jen.Err()).Op(":=").Id("integer").Call(jen.Id("data")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		)
	} else {
		body = append(body,
			jen.Var().Id("x").Add(primType(t.Elem.Prim)),
			jen.If(jen.Err().Op(":=").Qual(encodingJSON, "Unmarshal").Call(jen.Id("data"), jen.Op("&").Id("x")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		)
	}
	body = append(body, scalarChecks(t, jen.Id("x"))...)
	body = append(body,
		jen.Op("*").Id("v").Op("=").Id(g.name(t)).Call(jen.Id("x")),
		jen.Return(jen.Nil()),
	)
	doc := fmt.Sprintf("UnmarshalJSON decodes %s and refuses values the schema does not %s.", article(g.name(t)), allowWord(t))
	if !checksScalar(t) {
		doc = fmt.Sprintf("UnmarshalJSON decodes %s: as in JSON Schema, 1.0 and 1e2 are integers.", article(g.name(t)))
	}
	f.Comment(doc)
	f.Func().Params(jen.Id("v").Op("*").Id(g.name(t))).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(body...)
}

// emitCollectionDecoder writes UnmarshalJSON for a named array or map of
// unions, or of values the schema narrows (each is checked, and a refused
// one named by its index or key).
func (g *gen) emitCollectionDecoder(f *jen.File, t *schema.Type) {
	ref := collectionRef(t)
	dec := g.decoderFor(ref, false)
	if r := g.ruleFor(ref); r != nil {
		dec = jen.Id("checkedBy").Call(dec, r)
	}
	f.Comment(fmt.Sprintf("UnmarshalJSON decodes %s element by element.", article(g.name(t))))
	f.Func().Params(jen.Id("v").Op("*").Id(g.name(t))).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.List(jen.Id("out"), jen.Err()).Op(":=").Add(dec).Call(jen.Id("data")),
		jen.Op("*").Id("v").Op("=").Id("out"),
		jen.Return(jen.Err()),
	)
}

// collectionRef is the type expression of a named array or map.
func collectionRef(t *schema.Type) *schema.Ref {
	if t.Kind == schema.KindMap {
		return &schema.Ref{Map: t.Elem}
	}
	return &schema.Ref{Array: t.Elem}
}

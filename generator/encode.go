package generator

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/mcpgen/mcpgen/internal/jsonfields"
	"github.com/mcpgen/mcpgen/schema"
)

func compactJSON(raw json.RawMessage) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return raw
	}
	return buf.Bytes()
}

// emitEncoders writes MarshalJSON for the structs that need more than
// their field tags: constant members, undeclared members to keep, or
// required arrays and maps that must not encode as null.
func (g *gen) emitEncoders(f *jen.File) {
	for _, t := range g.m.Types {
		switch t.Kind {
		case schema.KindStruct:
			g.emitStructEncoder(f, t)
		case schema.KindEnum:
			g.emitEnumEncoder(f, t)
		case schema.KindScalar:
			if checksScalar(t) {
				g.emitScalarEncoder(f, t)
			}
		case schema.KindArray, schema.KindMap:
			r := g.ruleFor(collectionRef(t))
			if r != nil || collectionUnionCheck(t, jen.Null()) != nil {
				g.emitCollectionEncoder(f, t, r)
			}
		}
	}
}

// emitScalarEncoder writes MarshalJSON for a named scalar whose value the
// schema narrows: what its decoder refuses is refused on the way out.
func (g *gen) emitScalarEncoder(f *jen.File, t *schema.Type) {
	body := scalarChecks(t, primType(t.Elem.Prim).Call(jen.Id("v")), jen.Nil())
	body = append(body, jen.Return(jen.Qual(encodingJSON, "Marshal").Call(primType(t.Elem.Prim).Call(jen.Id("v")))))
	f.Comment(fmt.Sprintf("MarshalJSON encodes %s and refuses values the schema does not %s.", article(g.name(t)), allowWord(t)))
	f.Func().Params(jen.Id("v").Id(g.name(t))).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

// emitCollectionEncoder writes MarshalJSON for a named array or map whose
// elements the schema narrows (rule, or nil), or that are unions: an
// element its decoder refuses is refused on the way out.
func (g *gen) emitCollectionEncoder(f *jen.File, t *schema.Type, rule jen.Code) {
	plainType := g.goType(collectionRef(t))
	plain := func() jen.Code { return plainType.Clone().Call(jen.Id("v")) }
	var checks, body []jen.Code
	if rule != nil {
		checks = append(checks, jen.Add(rule).Call(plain()))
	}
	if check := collectionUnionCheck(t, plain()); check != nil {
		checks = append(checks, check)
	}
	for _, check := range checks {
		body = append(body, jen.If(jen.Err().Op(":=").Add(check), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())))
	}
	body = append(body, jen.Return(jen.Id("appendJSONAt").Call(jen.Id("dst"), plain(), jen.Id("d"))))
	name := g.name(t)
	f.Comment(fmt.Sprintf("MarshalJSON encodes %s and refuses elements the schema does not allow.", article(name)))
	f.Func().Params(jen.Id("v").Id(name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("v").Dot("appendJSONAt").Call(jen.Nil(), jen.Id("encodeDepth").Values())),
	)
	f.Comment(fmt.Sprintf("AppendJSON appends the encoding of %s to dst, as MarshalJSON returns it.", article(name)))
	f.Func().Params(jen.Id("v").Id(name)).Id("AppendJSON").Params(jen.Id("dst").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("v").Dot("appendJSONAt").Call(jen.Id("dst"), jen.Id("encodeDepth").Values())),
	)
	f.Comment(fmt.Sprintf("appendJSONAt is AppendJSON for %s nested at depth d (see encodeDepth).", article(name)))
	f.Func().Params(jen.Id("v").Id(name)).Id("appendJSONAt").Params(jen.Id("dst").Index().Byte(), jen.Id("d").Id("encodeDepth")).Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

// emitEnumEncoder writes MarshalJSON for an enum: a value the schema does
// not list is refused on the way out as on the way in.
func (g *gen) emitEnumEncoder(f *jen.File, t *schema.Type) {
	values := make([]jen.Code, len(t.Enum))
	for i, v := range t.Enum {
		values[i] = jen.Lit(v)
	}
	var null jen.Code = jen.Null()
	if t.Nullable {
		null = jen.If(jen.Id("v").Op("==").Lit("")).Block(jen.Return(jen.Index().Byte().Call(jen.Lit("null")), jen.Nil()))
	}
	f.Comment(fmt.Sprintf("MarshalJSON encodes %s and refuses values the schema does not list.", article(g.name(t))))
	f.Func().Params(jen.Id("v").Id(g.name(t))).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		null,
		jen.If(jen.Op("!").Id("v").Dot("Valid").Call()).Block(
			jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit(g.name(t)+": %q is not one of %q"), jen.String().Call(jen.Id("v")), jen.Index().String().Values(values...))),
		),
		jen.Return(jen.Qual(encodingJSON, "Marshal").Call(jen.String().Call(jen.Id("v")))),
	)
}

// emitStructEncoder writes MarshalJSON for one struct: it fills what an
// unset field must go out as, refuses what the decoder would refuse (an
// enum value or a number out of bounds, raw JSON of the wrong kind), adds
// the constant members, and the members whose names a struct tag cannot
// spell ("", "a,b"), then the kept extra members.
//
//	func (x TextContent) MarshalJSON() ([]byte, error) { return x.appendJSONAt(nil, encodeDepth{}) }
//
//	func (x TextContent) AppendJSON(dst []byte) ([]byte, error) { return x.appendJSONAt(dst, encodeDepth{}) }
//
//	func (x TextContent) appendJSONAt(dst []byte, d encodeDepth) ([]byte, error) {
//		type wire TextContent
//		return appendJSONAt(dst, struct {
//			C0 json.RawMessage `json:"type"`
//			wire
//		}{json.RawMessage(`"text"`), wire(x)}, d)
//	}
func (g *gen) emitStructEncoder(f *jen.File, t *schema.Type) {
	fields, extra := structFields(t)
	var fixed, named []goField
	var fill []jen.Code
	fail := func(check jen.Code) jen.Code {
		return jen.If(jen.Err().Op(":=").Add(check), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
	}
	for _, gf := range fields {
		if !jsonfields.ValidTag(gf.Name) {
			named = append(named, gf)
		}
		switch {
		case gf.Fixed:
			if jsonfields.ValidTag(gf.Name) {
				fixed = append(fixed, gf)
			}
			continue
		case gf.Required && !gf.Type.Nullable && isCollection(gf.Type):
			fill = append(fill, jen.If(jen.Id("x").Dot(gf.Go).Op("==").Nil()).Block(
				jen.Id("x").Dot(gf.Go).Op("=").Add(g.emptyValue(gf.Type)),
			))
		case gf.Tag != "" && !pointerField(gf.Field):
			fill = append(fill, jen.If(jen.Id("x").Dot(gf.Go).Op("==").Lit("")).Block(
				jen.Id("x").Dot(gf.Go).Op("=").Lit(gf.Tag),
			))
		case gf.Type.Raw:
			// Raw JSON goes out only if it is what the schema requires.
			kind := byte(0)
			if gf.Type.RawKind == "object" {
				kind = 'o'
			}
			fill = append(fill, fail(jen.Id("checkRaw").Call(jen.Id("x").Dot(gf.Go), jen.Lit(gf.Name), jen.LitByte(kind), jen.Lit(gf.Required && !gf.Type.Nullable))))
		}
		for _, check := range g.valueChecks(gf, jen.Lit(gf.Required)) {
			fill = append(fill, fail(check))
		}
		for _, check := range unionChecks(gf) {
			fill = append(fill, fail(check))
		}
	}
	if len(fixed) == 0 && len(fill) == 0 && len(named) == 0 && extra == "" {
		return
	}
	body := append([]jen.Code{jen.Type().Id("wire").Id(g.name(t))}, fill...)
	var value jen.Code = jen.Id("wire").Call(jen.Id("x"))
	if len(fixed) > 0 {
		var members, values []jen.Code
		for i, gf := range fixed {
			members = append(members, jen.Id(fmt.Sprintf("C%d", i)).Qual(encodingJSON, "RawMessage").Tag(map[string]string{"json": gf.Name}))
			values = append(values, jen.Qual(encodingJSON, "RawMessage").Call(jen.Lit(string(compactJSON(gf.Const)))))
		}
		members = append(members, jen.Id("wire"))
		values = append(values, jen.Id("wire").Call(jen.Id("x")))
		value = jen.Struct(members...).Values(values...)
	}
	if extra == "" && len(named) == 0 {
		body = append(body, jen.Return(jen.Id("appendJSONAt").Call(jen.Id("dst"), value, jen.Id("d"))))
	} else {
		body = append(body,
			jen.Id("start").Op(":=").Len(jen.Id("dst")),
			jen.List(jen.Id("dst"), jen.Err()).Op(":=").Id("appendJSONAt").Call(jen.Id("dst"), value, jen.Id("d")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		)
		if len(named) > 0 {
			// Members a struct tag cannot name are added by hand.
			body = append(body, jen.Id("named").Op(":=").Map(jen.String()).Qual(encodingJSON, "RawMessage").Values())
			for _, gf := range named {
				var v jen.Code = jen.Id("x").Dot(gf.Go)
				optional := !gf.Required
				if gf.Fixed {
					v, optional = jen.Qual(encodingJSON, "RawMessage").Call(jen.Lit(string(compactJSON(gf.Const)))), false
				}
				body = append(body, fail(jen.Id("addMember").Call(jen.Id("named"), jen.Lit(gf.Name), v, jen.Lit(optional))))
			}
			body = append(body, jen.If(jen.List(jen.Id("dst"), jen.Err()).Op("=").Id("appendExtraAt").Call(jen.Id("dst"), jen.Id("start"), jen.Id("named")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())))
		}
		if extra == "" {
			body = append(body, jen.Return(jen.Id("dst"), jen.Nil()))
		} else {
			body = append(body, jen.Return(jen.Id("appendExtraAt").Call(jen.Id("dst"), jen.Id("start"), jen.Id("x").Dot(extra), jen.Id(g.membersVar(t)).Op("..."))))
		}
	}
	name := g.name(t)
	f.Comment(fmt.Sprintf("MarshalJSON encodes %s, refusing values its decoder would refuse.", article(name)))
	f.Func().Params(jen.Id("x").Id(name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("x").Dot("appendJSONAt").Call(jen.Nil(), jen.Id("encodeDepth").Values())),
	)
	f.Comment(fmt.Sprintf("AppendJSON appends the encoding of %s to dst, as MarshalJSON returns it;", article(name)))
	f.Comment("nested values append themselves, so nothing is encoded twice.")
	f.Func().Params(jen.Id("x").Id(name)).Id("AppendJSON").Params(jen.Id("dst").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("x").Dot("appendJSONAt").Call(jen.Id("dst"), jen.Id("encodeDepth").Values())),
	)
	f.Comment(fmt.Sprintf("appendJSONAt is AppendJSON for %s nested at depth d (see encodeDepth).", article(name)))
	f.Func().Params(jen.Id("x").Id(name)).Id("appendJSONAt").Params(jen.Id("dst").Index().Byte(), jen.Id("d").Id("encodeDepth")).Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

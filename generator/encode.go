package generator

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/dave/jennifer/jen"
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
		if t.Kind == schema.KindStruct {
			g.emitStructEncoder(f, t)
		}
	}
}

// emitStructEncoder writes MarshalJSON for one struct.
//
//	func (x TextContent) MarshalJSON() ([]byte, error) {
//		type wire TextContent
//		return json.Marshal(struct {
//			C0 json.RawMessage `json:"type"`
//			wire
//		}{json.RawMessage(`"text"`), wire(x)})
//	}
func (g *gen) emitStructEncoder(f *jen.File, t *schema.Type) {
	fields, extra := structFields(t)
	var fixed []goField
	var fill []jen.Code
	for _, gf := range fields {
		switch {
		case gf.Fixed:
			fixed = append(fixed, gf)
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
			fill = append(fill, jen.If(jen.Err().Op(":=").Id("checkRaw").Call(jen.Id("x").Dot(gf.Go), jen.Lit(gf.Name), jen.LitByte(kind), jen.Lit(gf.Required && !gf.Type.Nullable)), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Err()),
			))
		}
	}
	if len(fixed) == 0 && len(fill) == 0 && extra == "" {
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
	if extra == "" {
		body = append(body, jen.Return(jen.Qual(encodingJSON, "Marshal").Call(value)))
	} else {
		body = append(body,
			jen.List(jen.Id("data"), jen.Err()).Op(":=").Qual(encodingJSON, "Marshal").Call(value),
			jen.If(jen.Err().Op("!=").Nil().Op("||").Len(jen.Id("x").Dot(extra)).Op("==").Lit(0)).Block(jen.Return(jen.Id("data"), jen.Err())),
			jen.Return(jen.Id("appendExtra").Call(jen.Id("data"), jen.Id("x").Dot(extra), jen.Id(g.membersVar(t)).Op("..."))),
		)
	}
	f.Comment(fmt.Sprintf("MarshalJSON encodes a %s with its constant members and kept extra members.", g.name(t)))
	f.Func().Params(jen.Id("x").Id(g.name(t))).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

package bind

import (
	"encoding/json"
	"go/constant"
	"go/types"
	"reflect"
	"strings"
)

// schemaConst checks the constant named by inputSchema= or outputSchema=:
// a string constant of the package holding a JSON Schema object whose root
// is "type": "object" and that compiles. It returns the schema's text.
func (b *binder) schemaConst(it item) (string, bool) {
	text, ok := b.stringConst(it)
	if !ok {
		return "", false
	}
	var root map[string]any
	if err := json.Unmarshal([]byte(text), &root); err != nil {
		b.errs.add(it.pos, "%s=%s: the constant is not a JSON object: %v", it.key, it.value, err)
		return "", false
	}
	if root["type"] != "object" {
		b.errs.add(it.pos, "%s=%s: the schema's root must have \"type\": \"object\"", it.key, it.value)
		return "", false
	}
	if msg, ok := validateValue([]byte(text), map[string]any{}); !ok && strings.Contains(msg, "compil") {
		b.errs.add(it.pos, "%s=%s: %s", it.key, it.value, msg)
		return "", false
	}
	return text, true
}

// metaConst checks the constant named by meta=: a JSON object.
func (b *binder) metaConst(it item) bool {
	text, ok := b.stringConst(it)
	if !ok {
		return false
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		b.errs.add(it.pos, "meta=%s: the constant is not a JSON object: %v", it.value, err)
		return false
	}
	return true
}

// stringConst returns the value of the package-level string constant it names.
func (b *binder) stringConst(it item) (string, bool) {
	obj := b.pkg.Scope().Lookup(it.value)
	c, isConst := obj.(*types.Const)
	if !isConst || c.Val().Kind() != constant.String {
		b.errs.add(it.pos, "%s=%s must name a string constant of package %s", it.key, it.value, b.pkg.Name())
		return "", false
	}
	return constant.StringVal(c.Val()), true
}

// completerSignature is the shape complete= methods and funcs must have.
const completerSignature = "func(ctx context.Context, argument, value string, context map[string]string) ([]string, error)"

// completer checks complete=: a method of the bound method's receiver
// type (so it reaches the server's state) or, for a package-level func, a
// func of the package.
func (b *binder) completer(d *directive, fn Func) (string, bool) {
	it, ok := d.first("complete")
	if !ok {
		return "", true
	}
	var obj types.Object
	if fn.IsMethod() {
		recv, _ := b.pkg.Scope().Lookup(fn.Recv).(*types.TypeName)
		if recv != nil {
			obj, _, _ = types.LookupFieldOrMethod(types.NewPointer(recv.Type()), true, b.pkg, it.value)
		}
		if _, isFunc := obj.(*types.Func); !isFunc {
			b.errs.add(it.pos, "complete=%s: %s has no method %s; declare func (%s) %s%s", it.value, fn.Recv, it.value, recvString(fn), it.value, strings.TrimPrefix(completerSignature, "func"))
			return "", false
		}
	} else if obj = b.pkg.Scope().Lookup(it.value); obj == nil {
		b.errs.add(it.pos, "complete=%s: package %s declares no func %s; want %s", it.value, b.pkg.Name(), it.value, completerSignature)
		return "", false
	}
	f, isFunc := obj.(*types.Func)
	if !isFunc || !isCompleterSignature(f.Type().(*types.Signature)) {
		b.errs.add(it.pos, "complete=%s has the wrong shape; want %s", it.value, completerSignature)
		return "", false
	}
	if sig := f.Type().(*types.Signature); sig.Recv() != nil && fn.IsMethod() {
		if _, ptr := types.Unalias(sig.Recv().Type()).(*types.Pointer); ptr && !fn.RecvPointer {
			b.errs.add(it.pos, "complete=%s has a pointer receiver but %s has a value receiver; give both the same receiver", it.value, describe(fn))
			return "", false
		}
	}
	return it.value, true
}

func recvString(fn Func) string {
	if fn.RecvPointer {
		return "x *" + fn.Recv
	}
	return "x " + fn.Recv
}

func isCompleterSignature(sig *types.Signature) bool {
	p, r := sig.Params(), sig.Results()
	if p.Len() != 4 || r.Len() != 2 || sig.Variadic() {
		return false
	}
	str := types.Typ[types.String]
	m, isMap := p.At(3).Type().Underlying().(*types.Map)
	sl, isSlice := r.At(0).Type().(*types.Slice)
	return isContext(p.At(0).Type()) && types.Identical(p.At(1).Type(), str) && types.Identical(p.At(2).Type(), str) &&
		isMap && types.Identical(m.Key(), str) && types.Identical(m.Elem(), str) &&
		isSlice && types.Identical(sl.Elem(), str) && isError(r.At(1).Type())
}

// promptArgText checks a prompt argument field's jsonschema tag (only
// required, title= and description= make sense for a string argument) and
// returns its title and description.
func (b *binder) promptArgText(f ArgField, where string, ok bool) (string, string, bool) {
	st, _ := b.fieldTag(f)
	items, err := splitTag(st.Get("jsonschema"))
	if err != nil {
		b.errs.add(f.Pos, "%s: %v", where, err)
		return "", "", false
	}
	var title, desc string
	for _, it := range items {
		switch it.key {
		case "required", "-":
		case "title":
			title = it.value
		case "description":
			desc = it.value
		default:
			msg := "jsonschema tag key " + it.key + " does not apply to a prompt argument (only required, title= and description=)"
			if s := suggest(it.key, []string{"required", "title", "description"}); s != "" {
				msg += " (did you mean " + s + "?)"
			}
			b.errs.add(f.Pos, "%s: %s", where, msg)
			ok = false
		}
	}
	if d := st.Get("jsonschema_description"); d != "" {
		desc = d
	}
	return title, desc, ok
}

// fieldTag finds the struct tag of an ArgField by position.
func (b *binder) fieldTag(f ArgField) (reflect.StructTag, bool) {
	return reflect.StructTag(f.Tag), true
}

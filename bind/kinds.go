package bind

import (
	"fmt"
	"go/token"
	"go/types"
	"net/url"
	"strings"
)

// tool binds //mcp:tool.
func (b *binder) tool(d *directive, fn Func, sig *types.Signature, desc string) {
	s, ok := b.checkSignature("tool", fn, sig, toolSignature)
	if !ok {
		return
	}
	fn.TakesContext = s.takesContext
	args, _, okArgs := b.argStruct("tool", fn, s, toolSignature)
	res, kind, okRes := b.result("tool", fn, s.result, toolSignature,
		ResultStruct, ResultString, ResultContentBlocks, ResultCallToolResult)
	name, namePos := b.name(d, fn)
	okName := true
	if why := checkToolName(name); why != "" {
		b.errs.add(namePos, "%s", why)
		okName = false
	} else {
		b.unique("tool name", name, namePos)
	}
	if !okArgs || !okRes || !okName {
		return
	}
	var inSchema, outSchema Schema
	okSchemas := true
	if it, ok := d.first("inputSchema"); ok {
		var ok bool
		inSchema.Const = it.value
		inSchema.Text, ok = b.schemaConst(it)
		okSchemas = ok && okSchemas
	} else if args != nil {
		inSchema.JSON, okSchemas = b.deriveSchema(args.Type, false, fn.Pos)
	}
	if it, ok := d.first("outputSchema"); ok {
		var ok bool
		outSchema.Const = it.value
		outSchema.Text, ok = b.schemaConst(it)
		okSchemas = ok && okSchemas
	} else if kind == ResultStruct {
		var okOut bool
		outSchema.JSON, outSchema.FromType, okOut = b.deriveSchemaFrom(res.Type, true, fn.Pos)
		okSchemas = okSchemas && okOut
	}
	taskSupport := ""
	if it, ok := d.first("taskSupport"); ok {
		if it.value != "optional" && it.value != "required" {
			b.errs.add(it.pos, "taskSupport=%s: want taskSupport=optional or taskSupport=required", it.value)
			okSchemas = false
		}
		taskSupport = it.value
	}
	meta := ""
	if it, ok := d.first("meta"); ok {
		meta, okSchemas = it.value, b.metaConst(it) && okSchemas
	}
	if !okSchemas {
		return
	}
	b.out.Tools = append(b.out.Tools, Tool{
		InputSchema: inSchema, OutputSchema: outSchema, TaskSupport: taskSupport, Meta: meta,
		Name: name, Title: d.value("title"), Description: desc, Icons: d.values("icon"), Scopes: b.scopes(d),
		Annotations: ToolAnnotations{
			ReadOnly:    d.flag("readOnly"),
			Destructive: d.flag("destructive"),
			Idempotent:  d.flag("idempotent"),
			OpenWorld:   d.flag("openWorld"),
		},
		Func: fn, Args: args, Result: res, ResultKind: kind, Pos: d.pos,
	})
}

// prompt binds //mcp:prompt.
func (b *binder) prompt(d *directive, fn Func, sig *types.Signature, desc string) {
	s, ok := b.checkSignature("prompt", fn, sig, promptSignature)
	if !ok {
		return
	}
	fn.TakesContext = s.takesContext
	args, st, okArgs := b.argStruct("prompt", fn, s, promptSignature)
	var fields []ArgField
	if st != nil {
		fields = structFields(b.fset, st)
		for i, f := range fields {
			fields[i].Title, fields[i].Description, okArgs = b.promptArgText(f, fmt.Sprintf("field %s of %s", f.GoPath, args.Expr), okArgs)
			if !isStringKind(derefType(f.Type)) {
				b.errs.add(f.Pos, "prompt argument field %s has type %s; prompt arguments are strings in MCP, so use a string field",
					f.GoPath, types.TypeString(f.Type, qualifier(b.pkg)))
				okArgs = false
			}
		}
	}
	res, kind, okRes := b.result("prompt", fn, s.result, promptSignature,
		ResultGetPromptResult, ResultPromptMessages, ResultString)
	name, namePos := b.name(d, fn)
	okName := b.nonEmpty("prompt", name, namePos)
	if okName {
		b.unique("prompt name", name, namePos)
	}
	complete, okComplete := b.completer(d, fn)
	if !okArgs || !okRes || !okName || !okComplete {
		return
	}
	b.out.Prompts = append(b.out.Prompts, Prompt{
		Name: name, Title: d.value("title"), Description: desc, Icons: d.values("icon"), Scopes: b.scopes(d),
		Func: fn, Args: args, Arguments: fields, Complete: complete, Result: res, ResultKind: kind, Pos: d.pos,
	})
}

// resource binds //mcp:resource.
func (b *binder) resource(d *directive, fn Func, sig *types.Signature, desc string) {
	s, ok := b.checkSignature("resource", fn, sig, resourceSignature)
	if !ok {
		return
	}
	fn.TakesContext = s.takesContext
	if s.arg != nil {
		b.errs.add(b.pos(s.argPos), "a resource func takes no argument besides ctx (want %s); use //mcp:resourceTemplate for URIs with variables", resourceSignature)
		return
	}
	res, kind, okRes := b.result("resource", fn, s.result, resourceSignature,
		ResultString, ResultBytes, ResultStruct, ResultReadResourceResult)
	uriItem, hasURI := d.first("uri")
	okURI := hasURI
	if !hasURI {
		b.errs.add(d.pos, "//mcp:resource needs uri=<absolute URI>, e.g. uri=\"file:///config.json\"")
	} else if u, err := url.Parse(uriItem.value); err != nil || u.Scheme == "" {
		b.errs.add(uriItem.pos, "uri %q is not an absolute URI (it needs a scheme such as file:// or https://)", uriItem.value)
		okURI = false
	} else {
		b.unique("resource uri", uriItem.value, uriItem.pos)
	}
	name, namePos := b.name(d, fn)
	okName := b.nonEmpty("resource", name, namePos)
	if !okRes || !okURI || !okName {
		return
	}
	b.out.Resources = append(b.out.Resources, Resource{
		URI: uriItem.value, Name: name, Title: d.value("title"), MIMEType: d.value("mimeType"),
		Description: desc, Icons: d.values("icon"), Scopes: b.scopes(d),
		Func: fn, Result: res, ResultKind: kind, Pos: d.pos,
	})
}

// template binds //mcp:resourceTemplate.
func (b *binder) template(d *directive, fn Func, sig *types.Signature, desc string) {
	s, ok := b.checkSignature("resource template", fn, sig, templateSignature)
	if !ok {
		return
	}
	fn.TakesContext = s.takesContext
	args, st, okArgs := b.argStruct("resource template", fn, s, templateSignature)
	res, kind, okRes := b.result("resource template", fn, s.result, templateSignature,
		ResultString, ResultBytes, ResultStruct, ResultReadResourceResult)
	tmplItem, hasTmpl := d.first("uriTemplate")
	var vars []ArgField
	okTmpl := hasTmpl
	if !hasTmpl {
		b.errs.add(d.pos, "//mcp:resourceTemplate needs uriTemplate=<RFC 6570 template>, e.g. uriTemplate=\"weather://{city}/current\"")
	} else if names, err := templateVars(tmplItem.value); err != nil {
		b.errs.add(tmplItem.pos, "invalid uriTemplate %q: %v", tmplItem.value, err)
		okTmpl = false
	} else {
		b.unique("resource template", tmplItem.value, tmplItem.pos)
		if okArgs {
			vars, okTmpl = b.bindVars(fn, tmplItem, names, args, st)
		}
	}
	name, namePos := b.name(d, fn)
	okName := b.nonEmpty("resource template", name, namePos)
	complete, okComplete := b.completer(d, fn)
	if !okArgs || !okRes || !okTmpl || !okName || !okComplete {
		return
	}
	b.out.Templates = append(b.out.Templates, ResourceTemplate{
		URITemplate: tmplItem.value, Name: name, Title: d.value("title"), MIMEType: d.value("mimeType"),
		Description: desc, Icons: d.values("icon"), Scopes: b.scopes(d),
		Func: fn, Args: args, Vars: vars, Complete: complete, Result: res, ResultKind: kind, Pos: d.pos,
	})
}

// bindVars matches every template variable with a string field of the
// variables struct by JSON name.
func (b *binder) bindVars(fn Func, tmpl item, names []string, args *TypeRef, st *types.Struct) ([]ArgField, bool) {
	if len(names) == 0 {
		return nil, true
	}
	if st == nil {
		b.errs.add(tmpl.pos, "uriTemplate %q has variables {%s} but %s takes no variables struct (want %s)",
			tmpl.value, strings.Join(names, "}, {"), describe(fn), templateSignature)
		return nil, false
	}
	byName := map[string]ArgField{}
	for _, f := range structFields(b.fset, st) {
		byName[f.Name] = f
	}
	ok := true
	vars := make([]ArgField, 0, len(names))
	for _, n := range names {
		f, found := byName[n]
		switch {
		case !found:
			b.errs.add(tmpl.pos, "template variable {%s} has no field in %s; add a string field with `json:\"%s\"`", n, args.Expr, n)
			ok = false
		case !isStringKind(f.Type):
			b.errs.add(f.Pos, "field %s bound to template variable {%s} has type %s; template variables are strings",
				f.GoPath, n, types.TypeString(f.Type, qualifier(b.pkg)))
			ok = false
		default:
			vars = append(vars, f)
		}
	}
	return vars, ok
}

// nonEmpty reports an empty name= value.
func (b *binder) nonEmpty(kind, name string, pos token.Position) bool {
	if name == "" {
		b.errs.add(pos, "%s name is empty", kind)
		return false
	}
	return true
}

func derefType(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

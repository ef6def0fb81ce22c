package bind

import (
	"strings"

	"github.com/dave/jennifer/jen"
)

// emitter holds the file being rendered for one package.
type emitter struct {
	pkg   *Package
	f     *jen.File
	named map[string]bool // import paths already named
}

func newEmitter(pkg *Package) *emitter {
	e := &emitter{pkg: pkg, f: jen.NewFilePathName(pkg.Path, pkg.Name), named: map[string]bool{}}
	e.importPkg("context", "context")
	e.importPkg(ServerPackagePath, "server")
	e.importPkg(MCPPackagePath, "mcp")
	return e
}

// declared reports whether the package scope declares name, in which case
// an import of that name would clash with it.
func (e *emitter) declared(name string) bool {
	return e.pkg.Types != nil && e.pkg.Types.Scope().Lookup(name) != nil
}

// importPkg names the import of path: its package name, or name2, name3, …
// when the package declares an identifier of that name.
func (e *emitter) importPkg(path, name string) {
	if path == e.pkg.Path || e.named[path] {
		return
	}
	e.named[path] = true
	if !e.declared(name) {
		e.f.ImportName(path, name)
		return
	}
	alias := name
	for i := 2; e.declared(alias); i++ {
		alias = name + itoa(i)
	}
	e.f.ImportAlias(path, alias)
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + itoa(i%10)
}

// tool is server.BindTool(server.ToolInfo{…}, (*Args)(nil), (*R)(nil), fn).
func (e *emitter) tool(recvVar string, t Tool) jen.Code {
	info := fields{{"Name", jen.Lit(t.Name)}}
	info = info.optional("Title", t.Title)
	info = info.optional("Description", t.Description)
	if a := annotations(t.Annotations); a != nil {
		info = append(info, field{"Annotations", a})
	}
	if len(t.Icons) > 0 {
		info = append(info, field{"Icons", icons(t.Icons)})
	}
	if len(t.Scopes) > 0 {
		info = append(info, field{"Scopes", stringList(t.Scopes)})
	}
	if !t.InputSchema.IsZero() {
		info = append(info, field{"InputSchema", schemaCode(t.InputSchema)})
	}
	if !t.OutputSchema.IsZero() {
		info = append(info, field{"OutputSchema", schemaCode(t.OutputSchema)})
		if t.OutputSchema.FromType {
			info = append(info, field{"OutputSchemaFromType", jen.True()})
		}
	}
	switch t.TaskSupport {
	case "optional":
		info = append(info, field{"TaskSupport", jen.Qual(ServerPackagePath, "TaskSupportOptional")})
	case "required":
		info = append(info, field{"TaskSupport", jen.Qual(ServerPackagePath, "TaskSupportRequired")})
	}
	if t.Meta != "" {
		info = append(info, field{"Meta", jen.Qual(ServerPackagePath, "MetaJSON").Call(jen.Id(t.Meta))})
	}
	return e.bindTool(recvVar, jen.Qual(ServerPackagePath, "ToolInfo").Add(info.code()), t)
}

// prompt is server.NewPrompt(server.PromptInfo{…}, fn).
func (e *emitter) prompt(recvVar string, p Prompt) jen.Code {
	info := fields{{"Name", jen.Lit(p.Name)}}
	info = info.optional("Title", p.Title)
	info = info.optional("Description", p.Description)
	if len(p.Icons) > 0 {
		info = append(info, field{"Icons", icons(p.Icons)})
	}
	if len(p.Scopes) > 0 {
		info = append(info, field{"Scopes", stringList(p.Scopes)})
	}
	if p.Args != nil {
		info = append(info, field{"Arguments", promptArguments(p.Arguments)})
	}
	if p.Complete != "" {
		info = append(info, field{"Complete", callee(recvVar, p.Complete)})
	}
	return jen.Qual(ServerPackagePath, "NewPrompt").Call(
		jen.Qual(ServerPackagePath, "PromptInfo").Add(info.code()),
		e.adapter(recvVar, p.Func, p.Args, true, p.Result),
	)
}

// resource is server.NewResource(server.ResourceInfo{…}, fn).
func (e *emitter) resource(recvVar string, r Resource) jen.Code {
	info := fields{{"URI", jen.Lit(r.URI)}, {"Name", jen.Lit(r.Name)}}
	info = info.optional("Title", r.Title)
	info = info.optional("Description", r.Description)
	info = info.optional("MIMEType", r.MIMEType)
	if len(r.Icons) > 0 {
		info = append(info, field{"Icons", icons(r.Icons)})
	}
	if len(r.Scopes) > 0 {
		info = append(info, field{"Scopes", stringList(r.Scopes)})
	}
	return jen.Qual(ServerPackagePath, "NewResource").Call(
		jen.Qual(ServerPackagePath, "ResourceInfo").Add(info.code()),
		e.adapter(recvVar, r.Func, nil, false, r.Result),
	)
}

// template is server.NewResourceTemplate(server.ResourceTemplateInfo{…}, fn).
func (e *emitter) template(recvVar string, t ResourceTemplate) jen.Code {
	info := fields{{"URITemplate", jen.Lit(t.URITemplate)}, {"Name", jen.Lit(t.Name)}}
	info = info.optional("Title", t.Title)
	info = info.optional("Description", t.Description)
	info = info.optional("MIMEType", t.MIMEType)
	if len(t.Icons) > 0 {
		info = append(info, field{"Icons", icons(t.Icons)})
	}
	if len(t.Scopes) > 0 {
		info = append(info, field{"Scopes", stringList(t.Scopes)})
	}
	if t.Complete != "" {
		info = append(info, field{"Complete", callee(recvVar, t.Complete)})
	}
	return jen.Qual(ServerPackagePath, "NewResourceTemplate").Call(
		jen.Qual(ServerPackagePath, "ResourceTemplateInfo").Add(info.code()),
		e.adapter(recvVar, t.Func, t.Args, true, t.Result),
	)
}

// schemaCode is json.RawMessage(`…`) holding a derived schema as indented
// JSON (a quoted literal when the text holds a backquote), or
// json.RawMessage(Const) for a schema named in the directive.
func schemaCode(s Schema) jen.Code {
	if s.Const != "" {
		return jen.Qual("encoding/json", "RawMessage").Call(jen.Id(s.Const))
	}
	if strings.Contains(s.JSON, "`") {
		return jen.Qual("encoding/json", "RawMessage").Call(jen.Lit(s.JSON))
	}
	return jen.Qual("encoding/json", "RawMessage").Call(jen.Op("`" + s.JSON + "`"))
}

// promptArguments is []server.PromptArgument{{Name: …, Required: true}, …}.
func promptArguments(args []ArgField) jen.Code {
	return jen.Index().Qual(ServerPackagePath, "PromptArgument").ValuesFunc(func(g *jen.Group) {
		for _, a := range args {
			f := fields{{"Name", jen.Lit(a.Name)}}
			f = f.optional("Title", a.Title)
			f = f.optional("Description", a.Description)
			if a.Required {
				f = append(f, field{"Required", jen.True()})
			}
			kvs := make([]jen.Code, len(f))
			for i, kv := range f {
				kvs[i] = jen.Id(kv.key).Op(":").Add(kv.value)
			}
			g.Line().Values(kvs...)
		}
		if len(args) > 0 {
			g.Line()
		}
	})
}

// field is one key of a composite literal.
type field struct {
	key   string
	value jen.Code
}

// fields are the keys of a composite literal, rendered one per line in order.
type fields []field

// optional adds key: "v" unless v is empty.
func (fs fields) optional(key, v string) fields {
	if v == "" {
		return fs
	}
	return append(fs, field{key, jen.Lit(v)})
}

func (fs fields) code() *jen.Statement {
	return jen.ValuesFunc(func(g *jen.Group) {
		for _, f := range fs {
			g.Line().Id(f.key).Op(":").Add(f.value)
		}
		g.Line()
	})
}

// annotations is &mcp.ToolAnnotations{…Hint: new(true), …}, or nil when no
// hint is stated.
func annotations(a ToolAnnotations) jen.Code {
	var d fields
	for _, h := range []struct {
		field string
		v     *bool
	}{
		{"ReadOnlyHint", a.ReadOnly},
		{"DestructiveHint", a.Destructive},
		{"IdempotentHint", a.Idempotent},
		{"OpenWorldHint", a.OpenWorld},
	} {
		if h.v != nil {
			d = append(d, field{h.field, jen.New(jen.Lit(*h.v))})
		}
	}
	if len(d) == 0 {
		return nil
	}
	return jen.Op("&").Qual(MCPPackagePath, "ToolAnnotations").Add(d.code())
}

// icons is []mcp.Icon{{Src: …}, …}.
func icons(srcs []string) jen.Code {
	return jen.Index().Qual(MCPPackagePath, "Icon").ValuesFunc(func(g *jen.Group) {
		for _, s := range srcs {
			g.Line().Values(jen.Id("Src").Op(":").Lit(s))
		}
		g.Line()
	})
}

// stringList is []string{"a", "b"}.
func stringList(vs []string) jen.Code {
	return jen.Index().String().ValuesFunc(func(g *jen.Group) {
		for _, v := range vs {
			g.Lit(v)
		}
	})
}

// adapter is the function handed to the runtime. The runtime wants
// func(context.Context, In) (Out, error) (func(context.Context) (Out, error)
// for a resource, withArg false); a func of exactly that shape is passed
// as is, others are wrapped in a func literal. A missing argument struct is
// struct{}.
func (e *emitter) adapter(recvVar string, fn Func, arg *TypeRef, withArg bool, result TypeRef) jen.Code {
	call := callee(recvVar, fn.Name)
	if fn.TakesContext && (arg != nil || !withArg) {
		return call
	}
	ctxName, inName := "ctx", "in"
	for fn.Name == ctxName || recvVar == ctxName {
		ctxName += "_"
	}
	for fn.Name == inName || recvVar == inName {
		inName += "_"
	}
	var params, args []jen.Code
	if fn.TakesContext {
		params = append(params, jen.Id(ctxName).Qual("context", "Context"))
		args = append(args, jen.Id(ctxName))
	} else {
		params = append(params, jen.Id("_").Qual("context", "Context"))
	}
	if withArg {
		if arg != nil {
			params = append(params, jen.Id(inName).Add(e.typeCode(arg.Type)))
			args = append(args, jen.Id(inName))
		} else {
			params = append(params, jen.Id("_").Struct())
		}
	}
	return jen.Func().Params(params...).Params(e.typeCode(result.Type), jen.Error()).Block(
		jen.Return(call.Call(args...)),
	)
}

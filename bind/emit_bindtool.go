package bind

import "github.com/dave/jennifer/jen"

// bindTool is the call of server.BindTool that binds tool t:
//
//	server.BindTool(info, (*Args)(nil), (*R)(nil), func(ctx context.Context, in any) (any, error) {
//		return s.Tool(ctx, *in.(*Args))
//	})
//
// It does what server.NewTool(info, s.Tool) does, but compiles without a
// generic instantiation per tool (each tool's own argument and result
// types would make one each, ≈15 ms of compile per tool) and without
// reflection calls the compiler would inline into the list functions: the
// types are nil pointers (static data), and the func literal is the only
// code per tool. A missing argument struct is struct{}.
func (e *emitter) bindTool(recvVar string, info jen.Code, t Tool) jen.Code {
	var argType jen.Code = jen.Struct()
	if t.Args != nil {
		argType = e.typeCode(t.Args.Type)
	}
	return jen.Qual(ServerPackagePath, "BindTool").Call(
		info,
		nilPointer(argType),
		nilPointer(e.typeCode(t.Result.Type)),
		e.boundCall(recvVar, t),
	)
}

// nilPointer is (*T)(nil).
func nilPointer(t jen.Code) jen.Code {
	return jen.Parens(jen.Op("*").Add(t)).Parens(jen.Nil())
}

// boundCall is the func literal BindTool calls: it takes the decoded
// arguments as a *Args in an any and calls the tool's func with them.
func (e *emitter) boundCall(recvVar string, t Tool) jen.Code {
	fn := t.Func
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
	if t.Args != nil {
		params = append(params, jen.Id(inName).Any())
		args = append(args, jen.Op("*").Id(inName).Assert(jen.Op("*").Add(e.typeCode(t.Args.Type))))
	} else {
		params = append(params, jen.Id("_").Any())
	}
	return jen.Func().Params(params...).Params(jen.Any(), jen.Error()).Block(
		jen.Return(callee(recvVar, fn.Name).Call(args...)),
	)
}

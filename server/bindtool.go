package server

import (
	"context"
	"fmt"
	"reflect"
)

// BindTool is [NewTool] for generated code: `mcpgen tools` writes it so
// that the bindings of many tools compile in time linear in their number,
// with no generic instantiation (nor inlined reflection) per tool.
// Hand-written code should call NewTool, which checks the types for itself.
//
// in and out are nil pointers to the tool's argument type In and result
// type Out, e.g. (*Args)(nil) and (*Report)(nil). For each call the
// runtime allocates a fresh In, validates and decodes the arguments into
// it exactly as NewTool does, and passes the *In (in an any) to fn, which
// runs the tool and returns its Out (in an any):
//
//	func(ctx context.Context, in any) (any, error) { return s.Tool(ctx, *in.(*Args)) }
//
// The tool then behaves as NewTool(info, s.Tool) does: the same schemas,
// validation, results and errors. fn must return a value of type Out; an
// fn that asserts another type than *In is a bug in the generator, and its
// panic fails the call with -32603.
func BindTool(info ToolInfo, in, out any, fn func(ctx context.Context, in any) (any, error)) Tool {
	inType, outType := pointee(in), pointee(out)
	if inType == nil || outType == nil {
		t := &toolImpl{entry: newEntry("tool", info.Name, info.Scopes)}
		t.err = fmt.Errorf("tool %q: BindTool needs nil pointers to the argument and result types, got %T and %T", info.Name, in, out)
		return Tool{t}
	}
	var call toolCall
	if fn != nil {
		call = func(ctx context.Context, args []byte, decode argsDecoder) (any, error) {
			into := reflect.New(inType).Interface()
			if err := decode(ctx, args, into); err != nil {
				return nil, argsError{err}
			}
			return fn(ctx, into)
		}
	}
	return newTool(info, inType, outType, call)
}

// pointee is the type *T points to, for p a *T; nil for anything else.
func pointee(p any) reflect.Type {
	t := reflect.TypeOf(p)
	if t == nil || t.Kind() != reflect.Pointer {
		return nil
	}
	return t.Elem()
}

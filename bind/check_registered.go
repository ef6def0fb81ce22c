package bind

import (
	"fmt"
	"go/types"
	"maps"
	"slices"
	"strings"
)

// registerFuncs are the funcs [Emit] declares for each set of bindings
// (the package-level funcs, the methods of one receiver type). Code that
// uses one of them serves that set.
var registerFuncs = []string{"MCPRegister", "MCPTools", "MCPPrompts", "MCPResources", "MCPResourceTemplates"}

// CheckServed is [CheckUpToDate] for the package of a command (package
// main), which must also serve what it binds: it reports an error naming
// each set of bindings the package's own code never uses — the
// package-level MCPRegister, or the (*T).MCPRegister of a receiver type T
// whose methods carry directives, that nothing calls (nor MCPTools, …).
// Such tools, prompts and resources compile, pass their tests and are
// never served. Another package is checked as CheckUpToDate checks it: its
// bindings are registered by the packages that import it. The scaffold's
// TestBindingsUpToDate calls it.
func CheckServed(dir string, opts LoadOptions) error {
	pkg, err := Load(dir, opts)
	if err != nil {
		return err
	}
	if err := checkUpToDate(pkg, dir); err != nil {
		return err
	}
	if pkg.Name != "main" || pkg.info == nil {
		return nil
	}
	var unused []string
	for _, owner := range pkg.owners() {
		if !pkg.usesBindings(owner) {
			unused = append(unused, owner)
		}
	}
	if len(unused) == 0 {
		return nil
	}
	var b strings.Builder
	for _, owner := range unused {
		if owner == "" {
			b.WriteString("\n  the package-level funcs' tools, prompts and resources: call MCPRegister(&opts) before server.New(opts)")
			continue
		}
		fmt.Fprintf(&b, "\n  the methods of %s: call MCPRegister on the %s value that holds their state, e.g. (&%s{}).MCPRegister(&opts), before server.New(opts)", owner, owner, owner)
	}
	return fmt.Errorf("package %s binds //mcp: directives it never registers, so the server does not serve them:%s", pkg.Path, b.String())
}

// owners are the receiver type names of the bound methods, sorted, after
// "" when package-level funcs are bound.
func (p *Package) owners() []string {
	set := map[string]bool{}
	note := func(fn Func) { set[fn.Recv] = true }
	for _, t := range p.Tools {
		note(t.Func)
	}
	for _, x := range p.Prompts {
		note(x.Func)
	}
	for _, x := range p.Resources {
		note(x.Func)
	}
	for _, x := range p.Templates {
		note(x.Func)
	}
	return slices.Sorted(maps.Keys(set))
}

// usesBindings reports whether a file of the package that is not
// generated uses one of the funcs [Emit] declares for owner ("" for the
// package-level funcs), or an interface method of the same name (the
// bindings may be registered through an interface).
func (p *Package) usesBindings(owner string) bool {
	want := map[types.Object]bool{}
	for _, name := range registerFuncs {
		if obj := p.bindingFunc(owner, name); obj != nil {
			want[obj] = true
		}
	}
	for id, obj := range p.info.Uses {
		if p.generated[p.fset.Position(id.Pos()).Filename] {
			continue
		}
		if want[obj] {
			return true
		}
		if fn, ok := obj.(*types.Func); ok && isInterfaceMethod(fn) && slices.Contains(registerFuncs, fn.Name()) {
			return true
		}
	}
	return false
}

// bindingFunc is the func or method name declared for owner; nil if none.
func (p *Package) bindingFunc(owner, name string) types.Object {
	if owner == "" {
		if fn, ok := p.Types.Scope().Lookup(name).(*types.Func); ok {
			return fn
		}
		return nil
	}
	tn, ok := p.Types.Scope().Lookup(owner).(*types.TypeName)
	if !ok {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), false, p.Types, name)
	if fn, ok := obj.(*types.Func); ok {
		return fn
	}
	return nil
}

func isInterfaceMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

package bind

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// LoadOptions tunes [Load].
type LoadOptions struct {
	// BuildFlags are passed to the go command, e.g. []string{"-tags=dev"}.
	BuildFlags []string
	// Env is the environment of the go command; nil means os.Environ().
	Env []string
	// OverlayEarlierBindings loads the files [Emit] wrote before as just
	// their package clause, so a re-run never compiles the old bindings (it
	// costs what a first run costs) and bindings that no longer compile (a
	// deleted or renamed func) cannot break the load. `mcpgen tools` sets
	// it; [CheckUpToDate] from a test leaves it off, so the go test cache
	// keeps seeing the package as it is.
	OverlayEarlierBindings bool
}

// loadMode is the one go/packages mode: syntax and types of the package
// itself, export data (no syntax) for its dependencies.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo

// Load loads the Go package in dir with one go/packages call, finds its
// //mcp: directives and checks the funcs they annotate. Directive problems
// are returned together as an [ErrorList]; other failures (no package,
// go command errors) as a plain error. Type errors elsewhere in the package
// (for example a stale generated file) are ignored unless they affect a bound
// signature (see LoadOptions.OverlayEarlierBindings for stale bindings).
// Files marked as generated ("// Code generated … DO NOT EDIT.")
// are not searched for directives.
func Load(dir string, opts LoadOptions) (*Package, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("bind: %w", err)
	}
	cfg := &packages.Config{Mode: loadMode, Dir: abs, Env: opts.Env, BuildFlags: opts.BuildFlags}
	if opts.OverlayEarlierBindings {
		cleanup, err := useOverlay(cfg, bindingOverlay(abs))
		if err != nil {
			return nil, fmt.Errorf("bind: loading %s: %w", dir, err)
		}
		defer cleanup()
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		if ferr := checkFolder(abs, dir); ferr != nil {
			return nil, ferr
		}
		return nil, fmt.Errorf("bind: loading %s: %w", dir, err)
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("bind: %s holds %d packages, want 1", dir, len(pkgs))
	}
	p := pkgs[0]
	var errs, typeErrs, buildErrs ErrorList
	for _, e := range p.Errors {
		switch {
		case e.Kind == packages.TypeError:
			typeErrs.add(parsePos(e.Pos), "%s", e.Msg)
		case strings.HasPrefix(e.Msg, "# "+p.PkgPath+"\n"):
			// A failed build of the package itself (export data is built
			// with the compiler); the type checker reports the same problems.
			buildErrs.add(parsePos(e.Pos), "%s", e.Msg)
		default:
			errs.add(parsePos(e.Pos), "%s", e.Msg)
		}
	}
	if len(typeErrs) == 0 {
		typeErrs = buildErrs
	}
	if len(errs) > 0 {
		errs.sort()
		return nil, errs
	}
	if p.Types == nil || p.TypesInfo == nil || p.Fset == nil {
		return nil, fmt.Errorf("bind: %s: package has no type information", dir)
	}
	b := &binder{
		fset: p.Fset, pkg: p.Types, info: p.TypesInfo, errs: &errs,
		out:   &Package{Name: p.Name, Path: p.PkgPath, Dir: abs, Types: p.Types, fset: p.Fset, info: p.TypesInfo, generated: map[string]bool{}},
		names: map[string]token.Position{},
	}
	for _, f := range p.Syntax {
		if ast.IsGenerated(f) {
			b.out.generated[p.Fset.Position(f.Package).Filename] = true
			continue
		}
		b.file(f)
	}
	if b.invalid {
		errs = append(errs, typeErrs...)
	}
	if len(errs) > 0 {
		errs.sort()
		return nil, errs
	}
	return b.out, nil
}

// checkFolder says what is wrong with a package folder the go command
// could not run in, which it reports as the go binary missing ("fork/exec
// …/go: no such file or directory"). It runs only after a failed load: a
// test's successful CheckUpToDate must not stat the folder, whose
// modification time (a file built into it) would keep Go's test cache
// from reusing the result.
func checkFolder(abs, dir string) error {
	switch fi, err := os.Stat(abs); {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("bind: package folder %s does not exist", dir)
	case err != nil:
		return fmt.Errorf("bind: package folder %w", err)
	case !fi.IsDir():
		return fmt.Errorf("bind: %s is not a folder: give the folder of the package", dir)
	}
	return nil
}

// parsePos parses the "file:line:col" form go/packages uses.
func parsePos(s string) token.Position {
	var p token.Position
	parts := strings.Split(s, ":")
	// Take numbers from the end so that file names with colons survive.
	nums := 0
	for nums < 2 && len(parts)-nums > 1 {
		n, err := strconv.Atoi(parts[len(parts)-1-nums])
		if err != nil {
			break
		}
		if nums == 0 && len(parts)-nums > 2 {
			p.Column = n
		} else {
			p.Line = n
		}
		nums++
	}
	if nums == 1 && p.Column != 0 {
		p.Line, p.Column = p.Column, 0
	}
	p.Filename = strings.Join(parts[:len(parts)-nums], ":")
	if s == "" || s == "-" {
		p.Filename = ""
	}
	return p
}

// binder walks the syntax of one package and fills the model.
type binder struct {
	fset    *token.FileSet
	pkg     *types.Package
	info    *types.Info
	errs    *ErrorList
	out     *Package
	names   map[string]token.Position // "tool:name", "prompt:name", … → first declaration
	invalid bool                      // a bound signature mentions an unresolved type
}

func (b *binder) pos(p token.Pos) token.Position { return b.fset.Position(p) }

// file binds every annotated func of f and rejects misplaced directives.
func (b *binder) file(f *ast.File) {
	inFuncDoc := map[*ast.Comment]bool{}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Doc == nil {
			continue
		}
		var found []*directive
		for _, c := range fd.Doc.List {
			if !isDirective(c) {
				continue
			}
			inFuncDoc[c] = true
			if d := parseDirective(b.fset, c, b.errs); d != nil {
				found = append(found, d)
			}
		}
		if len(found) == 0 {
			continue
		}
		for _, extra := range found[1:] {
			b.errs.add(extra.pos, "func %s has more than one //mcp: directive; a func binds one tool, prompt, resource or template", fd.Name.Name)
		}
		b.bind(found[0], fd)
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if kind, ok := spacedDirective(c); ok {
				b.errs.add(b.pos(c.Slash), "%q is an ordinary comment, not a directive: write //mcp:%s with no space after the slashes", "// mcp:"+kind, kind)
				continue
			}
			if isDirective(c) && !inFuncDoc[c] {
				kind, _, _ := strings.Cut(strings.TrimPrefix(c.Text, directivePrefix), " ")
				b.errs.add(b.pos(c.Slash), "//mcp:%s directive is not in the doc comment of a func or method; put it directly above a func (no blank line between)", kind)
			}
		}
	}
}

// bind checks one annotated func and appends it to the model.
func (b *binder) bind(d *directive, fd *ast.FuncDecl) {
	obj, ok := b.info.Defs[fd.Name].(*types.Func)
	if !ok {
		return
	}
	sig := obj.Type().(*types.Signature)
	fn := Func{Name: fd.Name.Name, Pos: b.pos(fd.Name.Pos())}
	if recv := sig.Recv(); recv != nil {
		t := types.Unalias(recv.Type())
		if p, ok := t.(*types.Pointer); ok {
			t, fn.RecvPointer = types.Unalias(p.Elem()), true
		}
		if n, ok := t.(*types.Named); ok {
			fn.Recv = n.Obj().Name()
		}
	}
	if hasInvalid(sig.Results()) || hasInvalid(sig.Params()) {
		b.invalid = true
		return
	}
	desc := description(fd.Doc.Text(), fd.Name.Name)
	bound, reported := b.bound(), len(*b.errs)
	defer func() {
		// A directive is bound or explained: never left out in silence.
		if b.bound() == bound && len(*b.errs) == reported {
			b.errs.add(d.pos, "internal error: the //mcp:%s directive of %s was neither bound nor reported; please report this mcpgen bug", d.kind, describe(fn))
		}
	}()
	switch d.kind {
	case kindTool:
		b.tool(d, fn, sig, desc)
	case kindPrompt:
		b.prompt(d, fn, sig, desc)
	case kindResource:
		b.resource(d, fn, sig, desc)
	case kindTemplate:
		b.template(d, fn, sig, desc)
	}
}

// bound counts the directives bound so far.
func (b *binder) bound() int {
	return len(b.out.Tools) + len(b.out.Prompts) + len(b.out.Resources) + len(b.out.Templates)
}

// describe names a func for messages: "func Weather" or "method (*Service).Weather".
func describe(fn Func) string {
	switch {
	case fn.Recv == "":
		return "func " + fn.Name
	case fn.RecvPointer:
		return "method (*" + fn.Recv + ")." + fn.Name
	default:
		return "method " + fn.Recv + "." + fn.Name
	}
}

// checkSignature splits sig and reports a mismatch against want.
func (b *binder) checkSignature(kind string, fn Func, sig *types.Signature, want string) (signature, bool) {
	s, why := splitSignature(sig)
	if why != "" {
		b.errs.add(fn.Pos, "cannot bind %s as a %s: %s; want %s", describe(fn), kind, why, want)
		return s, false
	}
	return s, true
}

// argStruct checks that the argument type is a named struct taken by value.
func (b *binder) argStruct(kind string, fn Func, s signature, want string) (*TypeRef, *types.Struct, bool) {
	if s.arg == nil {
		return nil, nil, true
	}
	named, ptr, ok := namedStruct(s.arg)
	expr := types.TypeString(s.arg, qualifier(b.pkg))
	switch {
	case ok && ptr:
		b.errs.add(b.pos(s.argPos), "argument type %s of %s is a pointer; take the struct by value (want %s)", expr, describe(fn), want)
		return nil, nil, false
	case !ok && isUnnamedStruct(s.arg):
		b.errs.add(b.pos(s.argPos), "argument type %s of %s is an unnamed struct; declare a named struct type for it (want %s)", expr, describe(fn), want)
		return nil, nil, false
	case !ok:
		b.errs.add(b.pos(s.argPos), "argument type %s of %s is not a struct; a %s takes a named struct type (want %s)", expr, describe(fn), kind, want)
		return nil, nil, false
	}
	ref := typeRef(s.arg, b.pkg)
	return &ref, named.Underlying().(*types.Struct), true
}

// result classifies the first result and checks it is one of allowed.
func (b *binder) result(kind string, fn Func, t types.Type, want string, allowed ...ResultKind) (TypeRef, ResultKind, bool) {
	expr := types.TypeString(t, qualifier(b.pkg))
	for _, name := range []string{"CallToolResult", "GetPromptResult", "ReadResourceResult"} {
		if isNamed(t, MCPPackagePath, name) {
			b.errs.add(fn.Pos, "result type %s of %s must be a pointer: return *mcp.%s", expr, describe(fn), name)
			return TypeRef{}, ResultInvalid, false
		}
	}
	k := resultKind(t)
	for _, a := range allowed {
		if k == a {
			return typeRef(t, b.pkg), k, true
		}
	}
	b.errs.add(fn.Pos, "unsupported result type %s for %s as a %s; want %s", expr, describe(fn), kind, want)
	return TypeRef{}, ResultInvalid, false
}

func resultKind(t types.Type) ResultKind {
	switch {
	case isMCPPointer(t, "CallToolResult"):
		return ResultCallToolResult
	case isMCPPointer(t, "GetPromptResult"):
		return ResultGetPromptResult
	case isMCPPointer(t, "ReadResourceResult"):
		return ResultReadResourceResult
	case isMCPSlice(t, "ContentBlock"):
		return ResultContentBlocks
	case isMCPSlice(t, "PromptMessage"):
		return ResultPromptMessages
	case isBytes(t):
		return ResultBytes
	case isStringKind(t):
		return ResultString
	}
	if _, _, ok := namedStruct(t); ok {
		return ResultStruct
	}
	return ResultInvalid
}

// name returns the name= value or the snake_case default, with its position.
func (b *binder) name(d *directive, fn Func) (string, token.Position) {
	if it, ok := d.first("name"); ok {
		return it.value, it.pos
	}
	return snakeCase(fn.Name), d.pos
}

// unique reports a second declaration of the same identity.
func (b *binder) unique(what, id string, pos token.Position) {
	key := what + "\x00" + id
	if first, dup := b.names[key]; dup {
		b.errs.add(pos, "duplicate %s %q; first declared at %s", what, id, formatPos(first))
		return
	}
	b.names[key] = pos
}

package bind

import (
	"go/token"
	"go/types"
	"strings"

	"github.com/dave/jennifer/jen"
)

// chunkSize is the most items one emitted function lists. The Go compiler's
// cost of one function grows faster than linearly with its size (a single
// 10 000-tool literal took minutes and gigabytes to build), so a longer list
// is split into functions of chunkSize items that the exported one
// concatenates.
const chunkSize = 100

// chunkName is the unexported function that lists chunk i of the items of
// exported (e.g. "mcpTools0" for "MCPTools"), renamed with trailing "_"
// while the package, or the receiver type, already has that name.
func (e *emitter) chunkName(recv, exported string, i int) string {
	name := "mcp" + exported[len("MCP"):] + itoa(i)
	for e.taken(recv, name) {
		name += "_"
	}
	return name
}

// taken reports whether the package scope (recv == "") or the method set
// and fields of *recv declare name outside generated files; names in a
// previous generated file do not count, so regenerating gives the same
// names.
func (e *emitter) taken(recv, name string) bool {
	if e.pkg.Types == nil {
		return false
	}
	var obj types.Object
	if recv == "" {
		obj = e.pkg.Types.Scope().Lookup(name)
	} else if tn, ok := e.pkg.Types.Scope().Lookup(recv).(*types.TypeName); ok {
		obj, _, _ = types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, e.pkg.Types, name)
	}
	if obj == nil {
		return false
	}
	return !e.inGenerated(obj.Pos())
}

// inGenerated reports whether pos lies in a file marked as generated.
func (e *emitter) inGenerated(pos token.Pos) bool {
	if e.pkg.fset == nil || !pos.IsValid() {
		return false
	}
	return e.pkg.generated[e.pkg.fset.Position(pos).Filename]
}

// listFunc emits "func Name() []server.Elem { return []server.Elem{items…} }"
// on the group's receiver.
func (e *emitter) listFunc(g *group, recvVar, name, elem string, items []jen.Code) {
	e.decl(g, recvVar, name).Params().Index().Qual(ServerPackagePath, elem).Block(
		jen.Return(jen.Index().Qual(ServerPackagePath, elem).ValuesFunc(func(vg *jen.Group) {
			for _, it := range items {
				vg.Line().Add(it)
			}
			vg.Line()
		})),
	)
}

// chunkedFunc emits the exported list function name as the concatenation
// of unexported functions of at most chunkSize items each.
func (e *emitter) chunkedFunc(g *group, recvVar, name, elem string, items []jen.Code) {
	e.importPkg("slices", "slices")
	var names []string
	for i := 0; i*chunkSize < len(items); i++ {
		names = append(names, e.chunkName(g.recv, name, i))
	}
	e.decl(g, recvVar, name).Params().Index().Qual(ServerPackagePath, elem).Block(
		jen.Return(jen.Qual("slices", "Concat").CallFunc(func(cg *jen.Group) {
			for _, n := range names {
				cg.Line().Add(callee(recvVar, n).Call())
			}
			cg.Line()
		})),
	)
	for i, n := range names {
		lo, hi := i*chunkSize, min((i+1)*chunkSize, len(items))
		e.f.Line()
		e.f.Commentf("%s returns %s %d to %d of %s.", n, strings.ToLower(splitWords(name[len("MCP"):])), lo+1, hi, name)
		e.listFunc(g, recvVar, n, elem, items[lo:hi])
	}
}

package schema

import (
	"regexp"

	"strings"
)

// pairResults gives each request its result, by what the schema states
// rather than by names, strongest evidence first:
//
//  1. the request's JSON-RPC result response: a definition with `result`
//     and `id` members and no `method` that schema.ts files under the
//     method's @category, or whose description links the request
//     ({@link CallToolRequest | tools/call}); its `result` is the result
//     (a union when the method may answer that it needs input first);
//  2. the one definition of the method's @category that is no message,
//     is not reachable from the request, and is used as a union member
//     (ServerResult, InputResponse…): where a result type is used;
//  3. else the generic result, what a JSON-RPC result response not tied to
//     a method carries: an alias of it (EmptyResult) when there is one;
//  4. only for a schema that states neither (2024-11-05 and 2025-03-26
//     have no @category and no result responses), names: <X>Result for
//     <X>Request, else EmptyResult, else Result.
func (b *builder) pairResults(m *Model) {
	categories := tsCategories(b.ts)
	byMethod := map[string]*Method{}
	byType := map[*Type]*Method{}
	for _, md := range m.Requests {
		byMethod[md.Name] = md
		byType[md.Type] = md
	}
	members := map[*Type]bool{}
	for _, t := range m.Types {
		if t.Kind == KindUnion {
			for _, mem := range t.Union.Members {
				members[mem.Type] = true
			}
		}
	}
	var generic *Ref
	responses := map[*Method]*Field{}
	for _, t := range m.Types {
		res, id := field(t, "result"), field(t, "id")
		if t.Kind != KindStruct || t.Inline || res == nil || id == nil || field(t, "method") != nil {
			continue
		}
		md := byMethod[categories[t.Name]]
		if md == nil {
			md = linkedRequest(t.Doc, m.Requests)
		}
		switch {
		case md != nil && res.Type.Named != nil:
			responses[md] = res
		case md == nil && generic == nil:
			generic = res.Type
		}
	}
	inCategory := map[string][]*Type{}
	for _, t := range m.Types {
		if c, ok := categories[t.Name]; ok && !t.Inline {
			inCategory[c] = append(inCategory[c], t)
		}
	}
	for _, md := range m.Requests {
		if f := responses[md]; f != nil {
			md.Result = f.Type.Named
			b.resultPtr[md] = f.Pointer
			continue
		}
		var found []*Type
		var reach map[*Type]bool
		if len(inCategory[md.Name]) > 0 {
			reach = reachable(md.Type, inCategory[md.Name])
		}
		for _, t := range inCategory[md.Name] {
			if !reach[t] && members[t] && field(t, "method") == nil && byType[t] == nil {
				found = append(found, t)
			}
		}
		if len(found) == 1 {
			md.Result = found[0]
			continue
		}
		if md.Result = genericResult(m, generic); md.Result != nil && (len(categories) > 0 || len(responses) > 0) {
			continue
		}
		for _, name := range []string{strings.TrimSuffix(md.Type.Name, "Request") + "Result", "EmptyResult", "Result"} {
			if t := m.Type(name); t != nil && byType[t] == nil {
				md.Result = t
				break
			}
		}
	}
}

// genericResult is the result a method without one of its own answers
// with: an alias of the JSON-RPC result (EmptyResult), else that result.
func genericResult(m *Model, generic *Ref) *Type {
	if generic == nil || generic.Named == nil {
		return nil
	}
	for _, t := range m.Types {
		if t.Kind == KindAlias && !t.Inline && t.Elem != nil && t.Elem.Named == generic.Named {
			return t
		}
	}
	return generic.Named
}

var tsLink = regexp.MustCompile(`\{@link\s+(\w+)\s*\|?\s*([^}\s]*)\s*\}`)

// linkedRequest is the request a response's description links to: the
// JSON schema keeps "{@link CallToolRequest | tools/call}" as
// "{@link CallToolRequesttools/call}".
func linkedRequest(doc string, requests []*Method) *Method {
	for _, l := range tsLink.FindAllStringSubmatch(doc, -1) {
		for _, md := range requests {
			if l[2] == md.Name || l[1] == md.Type.Name+md.Name {
				return md
			}
		}
	}
	return nil
}

// reachable is every type a request refers to through its inline types
// and the definitions of its own @category (the params and what they hold),
// itself included. Walking only those keeps the pairing linear in the
// schema: each category is walked once.
func reachable(t *Type, category []*Type) map[*Type]bool {
	within := map[*Type]bool{}
	for _, c := range category {
		within[c] = true
	}
	seen := map[*Type]bool{}
	var visit func(r *Ref)
	var visitType func(t *Type)
	visit = func(r *Ref) {
		for r != nil {
			if r.Named != nil {
				visitType(r.Named)
			}
			if r.Array != nil {
				r = r.Array
			} else {
				r = r.Map
			}
		}
	}
	visitType = func(t *Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		if len(seen) > 1 && !t.Inline && !within[t] {
			return
		}
		for _, f := range t.Fields {
			visit(f.Type)
		}
		visit(t.Elem)
		visit(t.Extra)
		if t.Union != nil {
			for _, mem := range t.Union.Members {
				visitType(mem.Type)
			}
		}
	}
	visitType(t)
	return seen
}

var tsCategory = regexp.MustCompile(`(?s)/\*\*((?:[^*]|\*[^/])*)\*/\s*export\s+(?:interface|type)\s+(\w+)`)
var tsCategoryTag = regexp.MustCompile("@category\\s+`?([^`\\n]+?)`?\\s*\\n")

// tsCategories maps each declaration of schema.ts to its @category, which
// for the declarations of one method is the method (`tools/call`).
func tsCategories(ts []byte) map[string]string {
	out := map[string]string{}
	for _, m := range tsCategory.FindAllSubmatch(ts, -1) {
		if c := tsCategoryTag.FindSubmatch(m[1]); c != nil {
			out[string(m[2])] = strings.TrimSpace(string(c[1]))
		}
	}
	return out
}

package schema

// Resolved returns the type that gives t its shape: t itself, or, when t
// is an alias, the type at the end of its chain of aliases (nil if the
// chain ends at a $ref that was refused).
func (t *Type) Resolved() *Type {
	if t == nil || t.Kind != KindAlias {
		return t
	}
	return t.resolved
}

// resolveAliases sets what Resolved returns on every alias. Each alias is
// walked once: a walk stops at an alias walked already, so a chain of n
// aliases costs n steps, not n², whether it ends at a type or at a $ref
// that was refused (nil, which cannot mark an alias as walked). Alias
// cycles were refused before.
func resolveAliases(types []*Type) {
	walked := map[*Type]bool{}
	for _, t := range types {
		if t.Kind != KindAlias || walked[t] {
			continue
		}
		var path []*Type
		end := t
		for end != nil && end.Kind == KindAlias && !walked[end] {
			walked[end] = true
			path = append(path, end)
			if end.Elem == nil {
				end = nil
				break
			}
			end = end.Elem.Named
		}
		if end != nil && end.Kind == KindAlias {
			end = end.resolved
		}
		for _, p := range path {
			p.resolved = end
		}
	}
}

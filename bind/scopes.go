package bind

import (
	"strings"
)

// scopes returns the OAuth scopes of a directive's scopes= key, split on
// spaces as in an OAuth scope parameter (scopes="files:read files:write");
// a scope that is not an RFC 6749 scope-token is reported at the key.
func (b *binder) scopes(d *directive) []string {
	it, ok := d.first("scopes")
	if !ok {
		return nil
	}
	list := strings.Fields(it.value)
	if len(list) == 0 {
		b.errs.add(it.pos, "scopes= lists no scope: write scopes=name or scopes=\"name1 name2\"")
		return nil
	}
	for _, sc := range list {
		for i := 0; i < len(sc); i++ {
			if c := sc[i]; c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
				b.errs.add(it.pos, "scope %q contains %q; an OAuth scope is printable ASCII without spaces, quotes or backslashes", sc, string(rune(c)))
				return nil
			}
		}
	}
	return list
}

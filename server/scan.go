package server

// The request hot path reads params without building a map: the members of
// an object through jsonrpc.EachMember, keys with jsonrpc.KeyEquals and
// strings with jsonrpc.StringValue. The two helpers here classify raw values.

// jsonKind returns the first byte of a raw JSON value: '{', '[', '"', 't',
// 'f', 'n' or a number's first character; 0 when empty.
func jsonKind(raw []byte) byte {
	for _, c := range raw {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c
		}
	}
	return 0
}

// isNullOrAbsent reports whether raw is empty or the literal null.
func isNullOrAbsent(raw []byte) bool {
	return len(raw) == 0 || string(raw) == "null"
}

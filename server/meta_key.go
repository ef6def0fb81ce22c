package server

// metaField is a reserved _meta key parseMetaTape reads, or metaOther.
type metaField uint8

const (
	metaOther metaField = iota
	metaProtocolVersion
	metaClientCapabilities
	metaClientInfo
	metaLogLevel
	metaProgressToken
)

// The reserved keys' shared prefix, "io.modelcontextprotocol/", as three
// words of eight bytes (TestMetaFieldOf checks that they make it).
const (
	mcpKeyPrefix0 = "io.model"
	mcpKeyPrefix1 = "contextp"
	mcpKeyPrefix2 = "rotocol/"
	mcpKeyPrefix  = mcpKeyPrefix0 + mcpKeyPrefix1 + mcpKeyPrefix2
)

// metaFieldOf is the reserved key s is exactly, as a switch on the key
// constants tells it. The compiler compares a string with a constant of at
// most 16 bytes inline and calls memequal for a longer one: a switch on the
// whole keys called it for each of a request's three 34- to 42-byte keys
// (~55 instructions each). Here the prefix is three inline comparisons of
// a word and the rest a switch on short constants, the one rest longer
// than 16 bytes split in two. TestMetaFieldOf and FuzzMetaFieldOf hold it
// to the switch on the constants (metaFieldSwitch).
func metaFieldOf(s string) metaField {
	if len(s) <= len(mcpKeyPrefix) || s[:8] != mcpKeyPrefix0 || s[8:16] != mcpKeyPrefix1 || s[16:24] != mcpKeyPrefix2 {
		if s == keyProgressToken {
			return metaProgressToken
		}
		return metaOther
	}
	switch rest := s[len(mcpKeyPrefix):]; rest {
	case "protocolVersion":
		return metaProtocolVersion
	case "clientInfo":
		return metaClientInfo
	case "logLevel":
		return metaLogLevel
	default:
		if len(rest) == len("clientCapabilities") && rest[:8] == "clientCa" && rest[8:] == "pabilities" {
			return metaClientCapabilities
		}
	}
	return metaOther
}

package server

import "testing"

// metaFieldSwitch is what metaFieldOf must tell: a switch on the key
// constants.
func metaFieldSwitch(s string) metaField {
	switch s {
	case keyProtocolVersion:
		return metaProtocolVersion
	case keyClientCapabilities:
		return metaClientCapabilities
	case keyClientInfo:
		return metaClientInfo
	case keyLogLevel:
		return metaLogLevel
	case keyProgressToken:
		return metaProgressToken
	}
	return metaOther
}

var metaKeySeeds = []string{
	keyProtocolVersion, keyClientCapabilities, keyClientInfo, keyLogLevel, keyProgressToken,
	keySubscriptionID, keyServerInfo, "", "io.modelcontextprotocol/", "io.modelcontextprotocol/clientCapabilitie",
	"io.modelcontextprotocol/clientCapabilitiesX", "io.modelcontextprotocol/ClientCapabilities", "io.modelcontextprotocol/clientCApabilities",
	"io.modelcontextprotocol/protocolversion", "io.modelcontextprotocoL/protocolVersion", "IO.modelcontextprotocol/protocolVersion",
	"io.modelcontextprotocol/clientInfo ", "progresstoken", "progressToken ", "x/protocolVersion", "protocolVersion",
}

func TestMetaFieldOf(t *testing.T) {
	if mcpKeyPrefix != "io.modelcontextprotocol/" || len(mcpKeyPrefix0) != 8 || len(mcpKeyPrefix1) != 8 || len(mcpKeyPrefix2) != 8 {
		t.Fatalf("prefix words %q %q %q", mcpKeyPrefix0, mcpKeyPrefix1, mcpKeyPrefix2)
	}
	for _, s := range metaKeySeeds {
		if got, want := metaFieldOf(s), metaFieldSwitch(s); got != want {
			t.Errorf("metaFieldOf(%q) = %d, want %d", s, got, want)
		}
	}
	for _, k := range []string{keyProtocolVersion, keyClientCapabilities, keyClientInfo, keyLogLevel, keyProgressToken} {
		if metaFieldOf(k) == metaOther {
			t.Errorf("metaFieldOf(%q) = metaOther", k)
		}
	}
}

func FuzzMetaFieldOf(f *testing.F) {
	for _, s := range metaKeySeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := metaFieldOf(s), metaFieldSwitch(s); got != want {
			t.Fatalf("metaFieldOf(%q) = %d, want %d", s, got, want)
		}
	})
}

// Package reqmeta fills the per-request _meta of 2026-07-28 requests
// (basic/index.mdx#meta) for the two callers that send them: the client
// package and the server's in-memory caller. Params travel as split JSON
// objects (member name → raw value), read with the runtime's scanner, so
// names are exact and a repeated name is an error.
package reqmeta

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// The _meta keys this package fills.
const (
	KeyProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	KeyClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	KeyClientInfo         = "io.modelcontextprotocol/clientInfo"
	KeyLogLevel           = "io.modelcontextprotocol/logLevel"
	// ReservedPrefix starts every key of the protocol itself.
	ReservedPrefix = "io.modelcontextprotocol/"
)

// Defaults are the values a caller puts into a request's _meta. A nil
// value sets nothing.
type Defaults struct {
	ProtocolVersion, ClientCapabilities, ClientInfo, LogLevel json.RawMessage
	// ForceVersion makes ProtocolVersion replace the params' own (a
	// negotiated version); otherwise a non-empty one in the params wins.
	ForceVersion bool
	// Legacy drops every io.modelcontextprotocol/ key instead (a legacy
	// session carries none of them).
	Legacy bool
}

// Fill sets the defaults in meta: the values of the known keys the params
// already carry win unless they are empty ("", {} or null, which the typed
// params always encode); null members are dropped.
func Fill(meta map[string]json.RawMessage, d Defaults) {
	for k, v := range meta {
		known := k == KeyProtocolVersion || k == KeyClientCapabilities || k == KeyClientInfo || k == KeyLogLevel
		if string(v) == "null" || (known && isEmpty(v)) || (d.Legacy && strings.HasPrefix(k, ReservedPrefix)) {
			delete(meta, k)
		}
	}
	if d.Legacy {
		return
	}
	set := func(key string, v json.RawMessage, force bool) {
		if _, ok := meta[key]; (force || !ok) && v != nil {
			meta[key] = v
		}
	}
	set(KeyProtocolVersion, d.ProtocolVersion, d.ForceVersion)
	set(KeyClientCapabilities, d.ClientCapabilities, false)
	set(KeyClientInfo, d.ClientInfo, false)
	set(KeyLogLevel, d.LogLevel, false)
}

func isEmpty(v json.RawMessage) bool {
	switch string(jsonscan.TrimSpace(v)) {
	case "", "null", `""`, "{}":
		return true
	}
	return false
}

// Split splits a JSON object into its members (values alias data).
func Split(data []byte) (map[string]json.RawMessage, error) {
	members := map[string]json.RawMessage{}
	dup, repeated, ok := jsonscan.Members(data, func(k, v []byte) { members[string(k)] = v })
	switch {
	case !ok:
		return nil, errors.New("not a JSON object")
	case repeated:
		return nil, fmt.Errorf("member %q appears twice", dup)
	}
	return members, nil
}

// Join encodes members as a JSON object, names sorted; the values must be
// valid JSON (from Split or json.Marshal).
func Join(members map[string]json.RawMessage) []byte {
	keys := make([]string, 0, len(members))
	size := 2
	for k, v := range members {
		keys = append(keys, k)
		size += len(k) + len(v) + 4
	}
	sort.Strings(keys)
	b := make([]byte, 0, size)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonrpc.AppendString(b, k)
		b = append(b, ':')
		b = append(b, members[k]...)
	}
	return append(b, '}')
}

// Params encodes params (any value that encodes as a JSON object, a
// json.RawMessage, or nil) and splits it into members.
func Params(params any) (map[string]json.RawMessage, error) {
	if params == nil {
		return map[string]json.RawMessage{}, nil
	}
	b, raw := params.(json.RawMessage)
	if !raw {
		var err error
		if b, err = json.Marshal(params); err != nil {
			return nil, err
		}
	} else if len(b) > 0 && !jsonscan.Valid(b) {
		return nil, errors.New("params are not valid JSON")
	}
	if len(b) == 0 || string(jsonscan.TrimSpace(b)) == "null" {
		return map[string]json.RawMessage{}, nil
	}
	members, err := Split(b)
	if err != nil {
		return nil, fmt.Errorf("params: %w", err)
	}
	return members, nil
}

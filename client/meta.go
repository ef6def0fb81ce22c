package client

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
)

// _meta keys of 2026-07-28 (basic/index.mdx#meta).
const (
	keyProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	keyClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	keyClientInfo         = "io.modelcontextprotocol/clientInfo"
	keyLogLevel           = "io.modelcontextprotocol/logLevel"
	keyProgressToken      = "progressToken"
	reservedPrefix        = "io.modelcontextprotocol/"
)

type builtMeta struct {
	raw           json.RawMessage
	progressToken string
}

// meta builds a request's _meta from the params' own (values the caller
// set win, except empty ones the typed params always carry) and the
// client's: modern requests get protocolVersion, clientCapabilities,
// clientInfo and logLevel; legacy requests lose every
// io.modelcontextprotocol/ key. A WithProgress context adds a progressToken.
func (c *Client) meta(members map[string]json.RawMessage, legacy bool, ver string, ctx context.Context) (builtMeta, error) {
	meta := map[string]json.RawMessage{}
	if m, ok := members["_meta"]; ok && string(m) != "null" {
		var err error
		if meta, err = splitObject(m); err != nil {
			return builtMeta{}, fmt.Errorf("_meta: %w", err)
		}
	}
	for k, v := range meta {
		if isEmptyJSON(v) || (legacy && strings.HasPrefix(k, reservedPrefix)) {
			delete(meta, k)
		}
	}
	if !legacy {
		meta[keyProtocolVersion], _ = json.Marshal(ver) // the negotiated version always wins
		setDefault(meta, keyClientCapabilities, c.caps)
		setDefault(meta, keyClientInfo, c.info)
		if c.opts.LogLevel != "" {
			lvl, _ := json.Marshal(c.opts.LogLevel)
			setDefault(meta, keyLogLevel, lvl)
		}
	}
	var out builtMeta
	if _, ok := progressFunc(ctx); ok {
		if _, set := meta[keyProgressToken]; !set {
			meta[keyProgressToken], _ = json.Marshal(fmt.Sprintf("p%d", progressSeq.Add(1)))
		}
	}
	if tok, ok := meta[keyProgressToken]; ok {
		out.progressToken = string(tok)
	}
	if len(meta) == 0 {
		return out, nil
	}
	out.raw = joinObject(meta)
	return out, nil
}

var progressSeq atomic.Int64

func setDefault(m map[string]json.RawMessage, key string, v json.RawMessage) {
	if _, ok := m[key]; !ok {
		m[key] = v
	}
}

func isEmptyJSON(v json.RawMessage) bool {
	switch strings.TrimSpace(string(v)) {
	case "", "null", `""`, "{}":
		return true
	}
	return false
}

package client

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/internal/reqmeta"
)

const keyProgressToken = "progressToken"

type builtMeta struct {
	raw           json.RawMessage
	progressToken string
}

// meta builds a request's _meta from the params' own and the client's
// (internal/reqmeta, shared with the server's in-memory caller): modern
// requests get the negotiated protocolVersion and, unless the params set
// them, clientCapabilities, clientInfo and logLevel; legacy requests lose
// every io.modelcontextprotocol/ key. A WithProgress context adds a
// progressToken.
func (c *Client) meta(members map[string]json.RawMessage, legacy bool, ver string, ctx context.Context) (builtMeta, error) {
	meta := map[string]json.RawMessage{}
	if m, ok := members["_meta"]; ok && string(m) != "null" {
		var err error
		if meta, err = reqmeta.Split(m); err != nil {
			return builtMeta{}, fmt.Errorf("_meta: %w", err)
		}
	}
	d := reqmeta.Defaults{Legacy: legacy, ForceVersion: true, ProtocolVersion: mustJSON(ver),
		ClientCapabilities: c.caps, ClientInfo: c.info}
	if c.opts.LogLevel != "" {
		d.LogLevel = mustJSON(c.opts.LogLevel)
	}
	reqmeta.Fill(meta, d)
	var out builtMeta
	if _, ok := progressFunc(ctx); ok {
		if _, set := meta[keyProgressToken]; !set {
			meta[keyProgressToken] = mustJSON(fmt.Sprintf("p%d", progressSeq.Add(1)))
		}
	}
	if tok, ok := meta[keyProgressToken]; ok {
		out.progressToken = progressTokenKey(tok) // as notificationKeys reads it back
	}
	if len(meta) > 0 {
		out.raw = reqmeta.Join(meta)
	}
	return out, nil
}

var progressSeq atomic.Int64

package httpwire

import (
	"bytes"
	"encoding/json"
	"errors"
)

// metaProtocolVersion is the _meta key that carries the request's version.
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// ErrNotAMessage reports a body that is not a single JSON-RPC message object.
var ErrNotAMessage = errors.New("body is not a single JSON-RPC message object")

// FactsFromBody reads the header-relevant facts from a raw POST body. It is
// lenient: fields of the wrong JSON type are treated as absent and left for
// the runtime's envelope and params validation. It fails only when body is
// not a JSON object (a parse error, a batch array or a bare value), which the
// runtime answers with -32700 / -32600 before any header check.
// ParamHeaders is left nil: the runtime sets it from the named tool.
func FactsFromBody(body []byte) (BodyFacts, error) {
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
		Params json.RawMessage `json:"params"`
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return BodyFacts{}, ErrNotAMessage
	}
	if err := json.Unmarshal(trimmed, &msg); err != nil {
		return BodyFacts{}, errors.Join(ErrNotAMessage, err)
	}
	var f BodyFacts
	hasMethod := jsonString(msg.Method, &f.Method)
	switch {
	case !hasMethod && (msg.Result != nil || msg.Error != nil):
		f.Kind = KindResponse
		return f, nil
	case msg.ID == nil:
		f.Kind = KindNotification
	default:
		f.Kind = KindRequest
	}

	var params struct {
		Name      json.RawMessage            `json:"name"`
		URI       json.RawMessage            `json:"uri"`
		TaskID    json.RawMessage            `json:"taskId"`
		Arguments json.RawMessage            `json:"arguments"`
		Meta      map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(msg.Params, &params) != nil {
		return f, nil // not an object: the runtime answers -32602
	}
	jsonString(params.Meta[metaProtocolVersion], &f.ProtocolVersion)
	switch field, _ := NameField(f.Method); field {
	case "name":
		f.HasName = jsonString(params.Name, &f.Name)
	case "uri":
		f.HasName = jsonString(params.URI, &f.Name)
	case "taskId":
		f.HasName = jsonString(params.TaskID, &f.Name)
	}
	if f.Method == "tools/call" {
		f.Arguments = params.Arguments
	}
	return f, nil
}

// jsonString decodes raw into *dst when raw is a JSON string.
func jsonString(raw json.RawMessage, dst *string) bool {
	return len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, dst) == nil
}

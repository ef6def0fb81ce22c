package driver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Protocol is the wire era the driver speaks.
type Protocol int

const (
	// Modern is 2026-07-28 stateless: no handshake, every request carries
	// params._meta with protocol version, client capabilities and client info.
	Modern Protocol = iota
	// Legacy is initialize (2025-11-25) + notifications/initialized, then
	// plain calls (and Mcp-Session-Id over HTTP when the server sets one).
	Legacy
)

// Protocol versions spoken by the driver.
const (
	ModernVersion = "2026-07-28"
	LegacyVersion = "2025-11-25"
)

func (p Protocol) String() string {
	if p == Legacy {
		return "legacy " + LegacyVersion
	}
	return "modern " + ModernVersion
}

func (p Protocol) version() string {
	if p == Legacy {
		return LegacyVersion
	}
	return ModernVersion
}

// Call is the one request a row repeats: a tools/call (Tool, Arguments)
// or a resources/read (Method "resources/read", URI).
type Call struct {
	// Method is "tools/call" when empty, or "resources/read".
	Method    string
	Tool      string
	Arguments json.RawMessage
	URI       string
	// Expected is the exact text of the first content block of the result.
	Expected string
	// Check, when set, replaces Expected: it checks the whole reply (whose
	// id and absence of an error are already checked).
	Check func(reply []byte) error
	// MultiRound makes every request a multi round-trip exchange: the
	// server must answer input_required with an input request under
	// AnswerKey, and the request is sent again with the answer (an accepted
	// elicitation) and the request state (see multiRound). The client
	// declares the elicitation capability.
	MultiRound bool
	AnswerKey  string
	// extraParams are appended to params (the second round's members).
	extraParams string
}

func (c Call) capabilities() string {
	if c.MultiRound {
		return `{"elicitation":{}}`
	}
	return `{}`
}

func (c Call) method() string {
	if c.Method == "" {
		return "tools/call"
	}
	return c.Method
}

// headerName is the Mcp-Name header value: the tool name or the URI.
func (c Call) headerName() string {
	if c.method() == "resources/read" {
		return c.URI
	}
	return c.Tool
}

// verify checks that reply answers id as c expects.
func (c Call) verify(reply []byte, id int64) error {
	if c.Check == nil {
		return verifyResponse(reply, id, c.Expected)
	}
	got, failed, ok := parseResponse(reply)
	switch {
	case !ok || got != id:
		return fmt.Errorf("reply does not answer request %d: %.300s", id, reply)
	case failed:
		return fmt.Errorf("error reply: %.300s", reply)
	}
	return c.Check(reply)
}

const clientInfo = `{"name":"mcpgen-bench","version":"0.1.0"}`

// encoder renders a tools/call request for any id without re-encoding JSON.
type encoder struct{ prefix, suffix []byte }

func newEncoder(p Protocol, c Call) (encoder, error) {
	var suffix string
	switch c.method() {
	case "tools/call":
		if !json.Valid(c.Arguments) {
			return encoder{}, fmt.Errorf("call arguments are not valid JSON: %.200s", c.Arguments)
		}
		name, _ := json.Marshal(c.Tool)
		suffix = `,"method":"tools/call","params":{"name":` + string(name) + `,"arguments":` + string(c.Arguments) + c.extraParams
	case "resources/read":
		uri, _ := json.Marshal(c.URI)
		suffix = `,"method":"resources/read","params":{"uri":` + string(uri)
	default:
		return encoder{}, fmt.Errorf("unsupported method %q", c.Method)
	}
	if p == Modern {
		suffix += `,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + ModernVersion +
			`","io.modelcontextprotocol/clientCapabilities":` + c.capabilities() + `,"io.modelcontextprotocol/clientInfo":` + clientInfo + `}`
	}
	suffix += "}}"
	return encoder{prefix: []byte(`{"jsonrpc":"2.0","id":`), suffix: []byte(suffix)}, nil
}

// size is the length of a request with an id of up to 20 digits.
func (e encoder) size() int { return len(e.prefix) + 20 + len(e.suffix) }

// appendRequest appends the request with the given id (no newline).
func (e encoder) appendRequest(dst []byte, id int64) []byte {
	dst = append(dst, e.prefix...)
	dst = strconv.AppendInt(dst, id, 10)
	return append(dst, e.suffix...)
}

func initializeRequest(id int64) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.FormatInt(id, 10) +
		`,"method":"initialize","params":{"protocolVersion":"` + LegacyVersion +
		`","capabilities":{},"clientInfo":` + clientInfo + `}}`)
}

var initializedNotification = []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

// parseResponse extracts the numeric id of a JSON-RPC response and whether it
// failed (error member or isError result). ok is false for anything that is
// not a response with a numeric id (notifications, server requests) or not
// a JSON object. It reads only the top-level members (topMembers), so a
// 10 MB reply costs the driver a memchr over its strings, not a decode.
func parseResponse(msg []byte) (id int64, failed, ok bool) {
	m, good := topMembers(msg)
	if !good || m.method != nil || m.id == nil {
		return 0, false, false
	}
	id, err := strconv.ParseInt(string(m.id), 10, 64)
	if err != nil {
		return 0, false, false
	}
	failed = m.err != nil && string(m.err) != "null" || bytes.Contains(msg, []byte(`"isError":true`))
	return id, failed, true
}

// verifyResponse checks that msg answers id with text content equal to want.
func verifyResponse(msg []byte, id int64, want string) error {
	var m struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		Result *struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		return fmt.Errorf("reply is not JSON: %v: %.300s", err, msg)
	}
	switch {
	case string(m.ID) != strconv.FormatInt(id, 10):
		return fmt.Errorf("reply id %s, want %d", m.ID, id)
	case m.Error != nil:
		return fmt.Errorf("JSON-RPC error %d: %s", m.Error.Code, m.Error.Message)
	case m.Result == nil:
		return fmt.Errorf("reply has no result: %.300s", msg)
	case m.Result.IsError:
		return fmt.Errorf("tool error: %.300s", msg)
	case len(m.Result.Content) == 0 || m.Result.Content[0].Type != "text":
		return fmt.Errorf("reply has no text content: %.300s", msg)
	case m.Result.Content[0].Text != want:
		return fmt.Errorf("reply text %q, want %q", m.Result.Content[0].Text, want)
	}
	return nil
}

// responseFromSSE returns the first event payload in an SSE body that is a
// JSON-RPC response (not a notification or server request).
func responseFromSSE(body []byte) ([]byte, error) {
	var data []byte
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64<<10), 256<<20)
	flush := func() []byte {
		msg := data
		data = nil
		if _, _, ok := parseResponse(msg); ok {
			return msg
		}
		return nil
	}
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if msg := flush(); msg != nil {
				return msg, nil
			}
		case bytes.HasPrefix(line, []byte("data:")):
			v := bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, v...)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if msg := flush(); msg != nil {
		return msg, nil
	}
	return nil, errors.New("SSE stream ended without a JSON-RPC response")
}

// responseFromHTTP returns the JSON-RPC message in an HTTP response body,
// which is either application/json or text/event-stream.
func responseFromHTTP(contentType string, body []byte) ([]byte, error) {
	if strings.HasPrefix(contentType, "text/event-stream") {
		return responseFromSSE(body)
	}
	return body, nil
}

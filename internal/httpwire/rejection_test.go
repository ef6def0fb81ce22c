package httpwire

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestRejectionWrite(t *testing.T) {
	rej := CheckMethod(http.MethodGet)
	rec := httptest.NewRecorder()
	// Error responses omit the id only when it could not be read (basic/index.mdx).
	if err := rej.Write(rec, nil); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 405 || rec.Header().Get("Allow") != "POST" || rec.Header().Get("Content-Type") != "application/json" {
		t.Errorf("code %d headers %v", rec.Code, rec.Header())
	}
	var got map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if _, has := got["id"]; has || got["jsonrpc"] != "2.0" {
		t.Errorf("body %s", rec.Body)
	}

	// The example error response of "Server Validation": id echoed, code -32020.
	mm := checkHeaders(std("tools/call", "Mcp-Name", "foo"), named("tools/call", "bar"))
	b, err := mm.Body(json.RawMessage(`1`))
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		JSONRPC string `json:"jsonrpc"`
		ID      json.RawMessage
		Error   struct {
			Code    int64
			Message string
			Data    HeaderMismatchData
		}
	}
	if err := json.Unmarshal(b, &resp); err != nil {
		t.Fatal(err)
	}
	if string(resp.ID) != "1" || resp.Error.Code != -32020 || resp.Error.Data.Header != "Mcp-Name" || resp.Error.Message == "" {
		t.Errorf("body %s", b)
	}
	// Large ids are copied verbatim, never through float64.
	b, _ = mm.Body(json.RawMessage(`9007199254740993`))
	if !json.Valid(b) || !strings.Contains(string(b), `"id":9007199254740993`) {
		t.Errorf("body %s", b)
	}
	if _, err := mm.Body(json.RawMessage(`{`)); err == nil {
		t.Error("invalid id accepted")
	}
}

func TestStatusForCode(t *testing.T) {
	tests := map[int64]int{
		CodeHeaderMismatch: 400, CodeMissingClientCapability: 400, CodeUnsupportedProtocolVersion: 400, // schema descriptions: MUST 400
		CodeInvalidParams:  400,                          // basic/index.mdx: missing _meta fields MUST be 400
		CodeMethodNotFound: 404,                          // "Protocol Version Header": unknown method MUST be 404 + -32601
		CodeParseError:     400, CodeInvalidRequest: 400, // inference (checklist H11)
		CodeInternalError: 200, -1: 200,
	}
	for code, want := range tests {
		if got := StatusForCode(code); got != want {
			t.Errorf("StatusForCode(%d) = %d, want %d", code, got, want)
		}
	}
}

package jsonrpc

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// An error whose Data is not JSON in UTF-8 (built by hand; NewError never
// makes one) is written without it: AppendError never writes a message
// that is not one JSON value on one line.
func TestAppendErrorLeavesOutInvalidData(t *testing.T) {
	for _, data := range []string{"{\"detail\":\n", "\"Z\xfcrich\"", "1 2", "{"} {
		e := &Error{Code: -32000, Message: "failed", Data: json.RawMessage(data)}
		if e.ValidData() {
			t.Errorf("ValidData(%q) = true", data)
		}
		got := string(AppendError(nil, IntID(1), e))
		if want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"failed"}}`; got != want {
			t.Errorf("data %q:\n got  %q\n want %q", data, got, want)
		}
	}
	e := &Error{Code: -32000, Message: "failed", Data: json.RawMessage("{\"detail\":\n\"Zürich\"}")}
	if !e.ValidData() {
		t.Error("ValidData of multi-line JSON = false")
	}
	if got, want := string(AppendError(nil, IntID(1), e)), `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"failed","data":{"detail":"Zürich"}}}`; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// NewError's data is JSON in UTF-8: a raw value holding invalid bytes
// becomes the string describing the failure, as any unmarshalable data.
func TestNewErrorDataNotUTF8(t *testing.T) {
	e := NewError(1, "x", json.RawMessage("\"Z\xfcrich\""))
	if !e.ValidData() || !utf8.Valid(e.Data) || !strings.Contains(string(e.Data), "not valid UTF-8") {
		t.Errorf("data = %q", e.Data)
	}
}

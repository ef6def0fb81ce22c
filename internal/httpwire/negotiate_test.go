package httpwire

import (
	"net/http"
	"testing"
)

func TestParseAccept(t *testing.T) {
	tests := []struct {
		accept    []string // nil = no Accept header
		json, sse bool
	}{
		// "Sending Messages" rule 2: clients list both types.
		{[]string{"application/json, text/event-stream"}, true, true},
		{[]string{"application/json", "text/event-stream"}, true, true},
		{[]string{"text/event-stream;q=0.5, application/json;charset=utf-8"}, true, true},
		{[]string{"application/json"}, true, false},
		{[]string{"text/event-stream"}, false, true},
		// RFC 9110 §12.5.1: no Accept = anything; wildcards; q=0 excludes; most specific wins.
		{nil, true, true},
		{[]string{"*/*"}, true, true},
		{[]string{"application/*, text/*"}, true, true},
		{[]string{"*/*, text/event-stream;q=0"}, true, false},
		{[]string{"APPLICATION/JSON, Text/Event-Stream"}, true, true},
		{[]string{"text/html"}, false, false},
		{[]string{"application/json;q=bogus, text/event-stream"}, false, true},
		{[]string{""}, false, false},
	}
	for _, tt := range tests {
		h := http.Header{}
		for _, v := range tt.accept {
			h.Add("Accept", v)
		}
		got := ParseAccept(h)
		if got.JSON != tt.json || got.SSE != tt.sse {
			t.Errorf("ParseAccept(%q) = %+v, want json %v sse %v", tt.accept, got, tt.json, tt.sse)
		}
		rej := CheckAccept(h)
		if (rej == nil) != (tt.json && tt.sse) {
			t.Errorf("CheckAccept(%q) = %v", tt.accept, rej)
		}
		if rej != nil && rej.Status != http.StatusNotAcceptable {
			t.Errorf("CheckAccept status %d", rej.Status)
		}
	}
}

func TestCheckContentType(t *testing.T) {
	tests := []struct {
		ct string
		ok bool
	}{
		{"application/json", true},
		{"application/json; charset=utf-8", true},
		{"Application/JSON; charset=UTF-8", true},
		// JSON-RPC messages MUST be UTF-8 (transports/index.mdx "Messages").
		{"application/json; charset=latin1", false},
		{"", false},
		{"text/plain", false},
		{"application/x-www-form-urlencoded", false},
		{"application/json-seq", false},
		{"application/json;;", false},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.ct != "" {
			h.Set("Content-Type", tt.ct)
		}
		rej := CheckContentType(h)
		if (rej == nil) != tt.ok {
			t.Errorf("CheckContentType(%q) = %v, want ok %v", tt.ct, rej, tt.ok)
		}
		if rej != nil && rej.Status != http.StatusUnsupportedMediaType {
			t.Errorf("status %d", rej.Status)
		}
	}
}

func TestCheckMethod(t *testing.T) {
	// "Backward Compatibility": GET or DELETE on the endpoint SHOULD get 405 (checklist Q40).
	for _, m := range []string{http.MethodGet, http.MethodDelete, http.MethodPut, http.MethodHead} {
		rej := CheckMethod(m)
		if rej == nil || rej.Status != http.StatusMethodNotAllowed || rej.Header.Get("Allow") != "POST" {
			t.Errorf("CheckMethod(%s) = %+v", m, rej)
		}
	}
	if rej := CheckMethod(http.MethodPost); rej != nil {
		t.Errorf("POST rejected: %v", rej)
	}
}

// The Accept lists clients send are read without allocating (the header
// checks run on every request).
func TestParseAcceptAllocatesNothingForUsualLists(t *testing.T) {
	for _, v := range []string{"application/json, text/event-stream", "text/event-stream;q=0.9, application/json, */*;q=0.1", "*/*"} {
		h := http.Header{"Accept": {v}}
		if n := testing.AllocsPerRun(100, func() { ParseAccept(h) }); n != 0 {
			t.Errorf("ParseAccept(%q): %v allocations, want 0", v, n)
		}
	}
}

package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzHTTPHandler sends random methods, headers and bodies through the
// handler (with a fake core that never blocks): it must not panic and must
// always answer with a known status and either an empty 202, a JSON-RPC
// message as application/json, or an SSE stream of JSON-RPC messages ending
// with the response.
func FuzzHTTPHandler(f *testing.F) {
	std := "Content-Type: application/json\nAccept: application/json, text/event-stream\nMCP-Protocol-Version: 2026-07-28\n"
	seeds := []struct{ method, headers, body string }{
		{"POST", std + "Mcp-Method: tools/list", reqBody("1", "tools/list", "")},
		{"POST", std + "Mcp-Method: tools/call\nMcp-Name: progress", callBody("2", "progress", `{}`)},
		{"POST", std + "Mcp-Method: tools/call\nMcp-Name: hdr\nMcp-Param-Region: =?base64?ZXU=?=", callBody("3", "hdr", `{"region":"eu"}`)},
		{"POST", std + "Mcp-Method: tools/call\nMcp-Name: fail_after_progress", callBody(`"x"`, "fail_after_progress", `{}`)},
		{"POST", std + "Mcp-Method: subscriptions/listen", reqBody("4", methodListen, "")},
		{"POST", std + "Mcp-Method: tools/call\nMcp-Name: nobody", callBody("5", "nobody", `{}`)},
		{"POST", std, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"POST", std, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`},
		{"POST", std + "Origin: https://evil.example", reqBody("1", "tools/list", "")},
		{"POST", std + "Host: evil.example.com", reqBody("1", "tools/list", "")},
		{"POST", std, `[{"jsonrpc":"2.0","id":1,"method":"x"}]`},
		{"POST", std, `{"jsonrpc":"2.0","id":1,"result":{}}`},
		{"POST", std, "\xff\xfe"},
		{"GET", "", ""},
		{"DELETE", std, ""},
		{"POST", "Content-Type: text/plain", "x"},
	}
	for _, s := range seeds {
		f.Add(s.method, s.headers, []byte(s.body))
	}
	core := newFakeCore()
	core.noBlock = true
	core.stop() // listen streams end right after their ack
	h := newHTTPHandler(core, HTTPOptions{MaxBodyBytes: 1 << 16})
	f.Fuzz(func(t *testing.T, method, headers string, body []byte) {
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:3000/mcp", bytes.NewReader(body))
		r.Method = method
		for line := range strings.SplitSeq(headers, "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok || k == "" {
				continue
			}
			if strings.EqualFold(k, "Host") {
				r.Host = strings.TrimSpace(v)
				continue
			}
			r.Header[k] = append(r.Header[k], strings.TrimPrefix(v, " "))
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		checkFuzzResponse(t, w)
	})
}

func checkFuzzResponse(t *testing.T, w *httptest.ResponseRecorder) {
	t.Helper()
	switch w.Code {
	case 200, 202, 400, 403, 404, 405, 406, 413, 415:
	default:
		t.Fatalf("unexpected status %d: %q", w.Code, w.Body)
	}
	if w.Code == 202 {
		if w.Body.Len() != 0 {
			t.Fatalf("202 with a body %q", w.Body)
		}
		return
	}
	if w.Header().Get("Mcp-Session-Id") != "" {
		t.Fatal("Mcp-Session-Id minted")
	}
	var msgs [][]byte
	switch ct := w.Header().Get("Content-Type"); ct {
	case "application/json":
		msgs = [][]byte{w.Body.Bytes()}
	case "text/event-stream":
		if w.Code != 200 {
			t.Fatalf("SSE with status %d", w.Code)
		}
		msgs = sseEvents(t, w.Body.Bytes())
	default:
		t.Fatalf("Content-Type %q (status %d, body %q)", ct, w.Code, w.Body)
	}
	if len(msgs) == 0 {
		t.Fatalf("no message in %q", w.Body)
	}
	for i, m := range msgs {
		var v struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Method  string          `json:"method"`
			Result  json.RawMessage `json:"result"`
			Error   *struct {
				Code    int64  `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(m, &v); err != nil || v.JSONRPC != "2.0" {
			t.Fatalf("message %d is not JSON-RPC: %q (%v)", i, m, err)
		}
		final := i == len(msgs)-1
		switch {
		case !final && (v.Method == "" || v.ID != nil):
			t.Fatalf("message %d before the response is not a notification: %s", i, m)
		case final && (v.Result == nil) == (v.Error == nil):
			t.Fatalf("last message is not a response: %s", m)
		case final && v.Error != nil && w.Code != 200 && v.Error.Code == 0:
			t.Fatalf("error response without a code: %s", m)
		}
	}
}

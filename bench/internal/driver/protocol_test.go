package driver

import (
	"encoding/json"
	"strings"
	"testing"
)

var testCall = Call{Tool: "weather_current", Arguments: json.RawMessage(`{"location":"Paris"}`), Expected: "Paris: 21.50 (metric)"}

func TestEncoderModern(t *testing.T) {
	enc, err := newEncoder(Modern, testCall)
	if err != nil {
		t.Fatal(err)
	}
	var req struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
		Params  struct {
			Name      string                     `json:"name"`
			Arguments map[string]string          `json:"arguments"`
			Meta      map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if err := json.Unmarshal(enc.appendRequest(nil, 42), &req); err != nil {
		t.Fatal(err)
	}
	if req.JSONRPC != "2.0" || req.ID != 42 || req.Method != "tools/call" || req.Params.Name != "weather_current" || req.Params.Arguments["location"] != "Paris" {
		t.Errorf("request = %+v", req)
	}
	if string(req.Params.Meta["io.modelcontextprotocol/protocolVersion"]) != `"2026-07-28"` ||
		string(req.Params.Meta["io.modelcontextprotocol/clientCapabilities"]) != `{}` ||
		len(req.Params.Meta["io.modelcontextprotocol/clientInfo"]) == 0 {
		t.Errorf("_meta = %v", req.Params.Meta)
	}
}

func TestEncoderLegacyAndBadArgs(t *testing.T) {
	enc, err := newEncoder(Legacy, testCall)
	if err != nil {
		t.Fatal(err)
	}
	msg := enc.appendRequest(nil, 1)
	if !json.Valid(msg) || strings.Contains(string(msg), "_meta") {
		t.Errorf("legacy request = %s", msg)
	}
	if !json.Valid(initializeRequest(1)) || !strings.Contains(string(initializeRequest(1)), LegacyVersion) {
		t.Errorf("initialize = %s", initializeRequest(1))
	}
	if _, err := newEncoder(Modern, Call{Tool: "x", Arguments: json.RawMessage(`{`)}); err == nil {
		t.Error("invalid arguments JSON: want error")
	}
}

func TestParseResponse(t *testing.T) {
	for _, tc := range []struct {
		msg        string
		id         int64
		failed, ok bool
	}{
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`, 7, false, true},
		{`{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"bad"}}`, 8, true, true},
		{`{"jsonrpc":"2.0","id":9,"result":{"content":[],"isError":true}}`, 9, true, true},
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`, 0, false, false},
		{`{"jsonrpc":"2.0","id":1,"method":"roots/list"}`, 0, false, false},
		{`{"jsonrpc":"2.0","id":"abc","result":{}}`, 0, false, false},
		{`garbage`, 0, false, false},
	} {
		id, failed, ok := parseResponse([]byte(tc.msg))
		if id != tc.id || failed != tc.failed || ok != tc.ok {
			t.Errorf("parseResponse(%s) = %d, %v, %v; want %d, %v, %v", tc.msg, id, failed, ok, tc.id, tc.failed, tc.ok)
		}
	}
}

func TestVerifyResponse(t *testing.T) {
	good := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Paris: 21.50 (metric)"}]}}`
	if err := verifyResponse([]byte(good), 2, testCall.Expected); err != nil {
		t.Errorf("good reply: %v", err)
	}
	for name, msg := range map[string]string{
		"wrong text":  `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Paris: 70.70 (imperial)"}]}}`,
		"wrong id":    `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Paris: 21.50 (metric)"}]}}`,
		"rpc error":   `{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"nope"}}`,
		"tool error":  `{"jsonrpc":"2.0","id":2,"result":{"isError":true,"content":[{"type":"text","text":"Paris: 21.50 (metric)"}]}}`,
		"no content":  `{"jsonrpc":"2.0","id":2,"result":{}}`,
		"not json":    `<html>`,
		"image first": `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"image","data":""}]}}`,
	} {
		if err := verifyResponse([]byte(msg), 2, testCall.Expected); err == nil {
			t.Errorf("%s: want error", name)
		}
	}
}

func TestResponseFromHTTP(t *testing.T) {
	want := `{"jsonrpc":"2.0","id":3,"result":{}}`
	sse := "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n" +
		"id: 1\nevent: message\ndata: " + want + "\n\n"
	got, err := responseFromHTTP("text/event-stream", []byte(sse))
	if err != nil || string(got) != want {
		t.Errorf("SSE: got %s, %v", got, err)
	}
	got, err = responseFromHTTP("text/event-stream", []byte("data: "+want)) // no trailing blank line
	if err != nil || string(got) != want {
		t.Errorf("SSE without final blank line: got %s, %v", got, err)
	}
	got, err = responseFromHTTP("application/json", []byte(want))
	if err != nil || string(got) != want {
		t.Errorf("JSON: got %s, %v", got, err)
	}
	if _, err := responseFromHTTP("text/event-stream", []byte(": ping\n\n")); err == nil {
		t.Error("SSE without a response: want error")
	}
}

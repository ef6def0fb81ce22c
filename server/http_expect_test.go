package server

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// expectExchange sends head (a request head announcing a body with Expect:
// 100-continue, and no body) on a fresh connection to addr and returns the
// status of the first response the server sends within 1.5 s (0: none).
func expectExchange(t *testing.T, addr, head string) int {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(1500 * time.Millisecond))
	if _, err := c.Write([]byte(head)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestExpectContinueRefusalIsAnsweredAtOnce: a client that sends
// "Expect: 100-continue" waits for either 100 Continue or a final status
// before it sends its body. RFC 9110 §10.1.1 makes the origin server send
// one of them immediately ("an immediate response with a final status
// code, if that status can be determined by examining just the method,
// target URI, and header fields, or an immediate 100 (Continue)
// response"). The handler decides 401 (no bearer token, README
// "Authorization": none is 401), 413 (Content-Length over MaxBodyBytes,
// README "Limits and shutdown") and 403 (Host check) from the header alone
// and returns at once. (limitHTTP once replaced r.Body with its
// deadlineBody, so net/http no longer recognized the unread body and,
// before it wrote the response, read up to 256 KiB of the body from the
// raw connection without sending 100 Continue: client and server waited on
// each other until the body read deadline, Limits.ReadTimeout, 30 s.)
func TestExpectContinueRefusalIsAnsweredAtOnce(t *testing.T) {
	k := newAuthKit(t, nil)
	addr := strings.TrimPrefix(k.srv.URL, "http://")
	body := faultCall("1", "whoami", `{}`, defaultMeta)
	head := func(host, extra string, n int) string {
		return "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\n" +
			"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n" +
			"Mcp-Name: whoami\r\nExpect: 100-continue\r\n" + extra + fmt.Sprintf("Content-Length: %d\r\n\r\n", n)
	}
	for _, c := range []struct {
		name string
		head string
		want int
	}{
		{"no token", head("127.0.0.1", "", len(body)), http.StatusUnauthorized},
		{"body over the limit", head("127.0.0.1", "Authorization: Bearer alice-read\r\n", 64<<20), http.StatusRequestEntityTooLarge},
		{"foreign Host", head("evil.example", "", len(body)), http.StatusForbidden},
		{"admitted: 100 Continue, then the body is read", head("127.0.0.1", "Authorization: Bearer alice-read\r\n", len(body)), http.StatusContinue},
	} {
		start := time.Now()
		got := expectExchange(t, addr, c.head)
		if got != c.want && got != http.StatusContinue {
			t.Errorf("%s: got status %d after %v; want %d (or 100 Continue) at once", c.name, got, time.Since(start).Round(time.Millisecond), c.want)
		}
	}
}

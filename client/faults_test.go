package client_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/generated/mcp"
)

const discoverResult = `{"resultType":"complete","ttlMs":0,"cacheScope":"private","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}}}`

type wireRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// fakeStdio is a scripted stdio server: it answers server/discover and
// hands every other message to answer, which writes what it likes.
func fakeStdio(t *testing.T, answer func(req wireRequest, w io.Writer)) (client.Transport, *fakeLog) {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	log := &fakeLog{}
	go func() {
		defer sw.Close()
		sc := bufio.NewScanner(sr)
		for sc.Scan() {
			var req wireRequest
			if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
				return
			}
			log.add(req)
			if req.Method == "server/discover" {
				fmt.Fprintf(sw, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", req.ID, discoverResult)
				continue
			}
			answer(req, sw)
		}
	}()
	t.Cleanup(func() { cw.Close(); sr.Close() })
	return client.NewStreamTransport(cr, cw, 0), log
}

type fakeLog struct {
	mu   sync.Mutex
	reqs []wireRequest
}

func (l *fakeLog) add(r wireRequest) { l.mu.Lock(); l.reqs = append(l.reqs, r); l.mu.Unlock() }

func (l *fakeLog) methods() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, r := range l.reqs {
		out = append(out, r.Method)
	}
	return out
}

func callErr(t *testing.T, tr client.Transport, opts *client.Options) error {
	t.Helper()
	c := connect(t, tr, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := c.CallTool(ctx, &mcp.CallToolRequestParams{Name: "x"})
	if err == nil {
		t.Fatal("the call succeeded; want an error")
	}
	return err
}

func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not say %q", err, p)
		}
	}
}

func TestStdioBadServers(t *testing.T) {
	t.Run("malformed JSON", func(t *testing.T) {
		tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
			fmt.Fprintln(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{`)
		})
		wantErr(t, callErr(t, tr, nil), "invalid JSON-RPC message")
	})
	t.Run("wrong id", func(t *testing.T) {
		tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) { fmt.Fprintln(w, `{"jsonrpc":"2.0","id":999,"result":{}}`) })
		wantErr(t, callErr(t, tr, nil), "request id 999", "never sent")
	})
	t.Run("server stops", func(t *testing.T) {
		tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) { w.(io.Closer).Close() })
		wantErr(t, callErr(t, tr, nil), "closed its output")
	})
	t.Run("result that is not a CallToolResult", func(t *testing.T) {
		tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":"nope"}}`+"\n", req.ID)
		})
		wantErr(t, callErr(t, tr, nil), "content")
	})
	t.Run("silence: timeout and notifications/cancelled", func(t *testing.T) {
		tr, log := fakeStdio(t, func(req wireRequest, w io.Writer) {})
		err := callErr(t, tr, &client.Options{RequestTimeout: 200 * time.Millisecond})
		wantErr(t, err, "tools/call timed out after 200ms")
		deadline := time.Now().Add(2 * time.Second)
		for !strings.Contains(strings.Join(log.methods(), " "), "notifications/cancelled") {
			if time.Now().After(deadline) {
				t.Fatalf("the server got %v, no notifications/cancelled", log.methods())
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
	t.Run("endless input requests", func(t *testing.T) {
		tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"input_required","requestState":"s","inputRequests":{"a":{"method":"elicitation/create","params":{"message":"again?","requestedSchema":{"type":"object","properties":{}}}}}}}`+"\n", req.ID)
		})
		err := callErr(t, tr, &client.Options{MaxRounds: 3, Elicit: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept"}, nil
		}})
		wantErr(t, err, "still needs input after 3 rounds")
	})
	t.Run("input request without a handler", func(t *testing.T) {
		tr, _ := fakeStdio(t, func(req wireRequest, w io.Writer) {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"input_required","inputRequests":{"m":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}}}}`+"\n", req.ID)
		})
		wantErr(t, callErr(t, tr, nil), "sampling/createMessage", "no Options.Sample handler")
	})
}

// fakeHTTP is a scripted Streamable HTTP server: discover is answered, the
// rest goes to answer.
func fakeHTTP(t *testing.T, answer func(req wireRequest, w http.ResponseWriter)) client.Transport {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req wireRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		if req.Method == "server/discover" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, discoverResult)
			return
		}
		answer(req, w)
	}))
	t.Cleanup(hs.Close)
	return client.HTTP(hs.URL)
}

func TestHTTPBadServers(t *testing.T) {
	sse := func(w http.ResponseWriter, events ...string) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range events {
			fmt.Fprintf(w, "data: %s\n\n", e)
		}
	}
	for _, tc := range []struct {
		name   string
		answer func(req wireRequest, w http.ResponseWriter)
		want   []string
	}{
		{"wrong id", func(req wireRequest, w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":"2.0","id":"other","result":{"content":[]}}`)
		}, []string{`with id "other"`}},
		{"malformed JSON", func(req wireRequest, w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"jsonrpc":`)
		}, []string{"not valid JSON-RPC"}},
		{"stream that stops", func(req wireRequest, w http.ResponseWriter) {
			sse(w, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}`)
		}, []string{"ended before the response"}},
		{"bad event", func(req wireRequest, w http.ResponseWriter) { sse(w, `not json`) }, []string{"not valid JSON-RPC"}},
		{"HTML error page", func(req wireRequest, w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, "<h1>bad gateway</h1>")
		}, []string{"HTTP 502", "bad gateway"}},
		{"unknown content type", func(req wireRequest, w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "hello")
		}, []string{`Content-Type "text/plain"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantErr(t, callErr(t, fakeHTTP(t, tc.answer), &client.Options{Era: client.EraAuto}), tc.want...)
		})
	}
}

func TestCallToolAsRejectsResultsThatFailTheSchema(t *testing.T) {
	tr := fakeHTTP(t, func(req wireRequest, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		switch req.Method {
		case "tools/list":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private","tools":[{"name":"add","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"]}}]}}`, req.ID)
		default:
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","content":[],"structuredContent":{"sum":"five"}}}`, req.ID)
		}
	})
	c := connect(t, tr, nil)
	_, _, err := client.CallToolAs[sum](context.Background(), c, "add", nil)
	if err == nil {
		t.Fatal("want an error")
	}
	wantErr(t, err, "does not match its outputSchema", "/sum")
}

// TestCallToolAsHostileNumbers: a server whose outputSchema or
// structuredContent carries a number beyond big.Rat's range (which
// santhosh-tekuri, linked into the client for servers' schemas, panicked
// on) gets an error naming it; the client does not crash.
func TestCallToolAsHostileNumbers(t *testing.T) {
	for _, c := range []struct {
		name, schema, content string
		want                  []string
	}{
		{"schema", `{"type":"object","patternProperties":{"^x":{}},"properties":{"sum":{"type":"integer","multipleOf":1e-10000000}}}`, `{"sum":1}`,
			[]string{"/properties/sum/multipleOf", "beyond the limits"}},
		{"content", `{"type":"object","patternProperties":{"^x":{}},"properties":{"sum":{"type":"integer","maximum":10}}}`, `{"sum":1e10000000}`,
			[]string{"structuredContent", "1e10000000"}}, // refused as it is read, before any schema
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := fakeHTTP(t, func(req wireRequest, w http.ResponseWriter) {
				w.Header().Set("Content-Type", "application/json")
				switch req.Method {
				case "tools/list":
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","ttlMs":0,"cacheScope":"private","tools":[{"name":"add","inputSchema":{"type":"object"},"outputSchema":%s}]}}`, req.ID, c.schema)
				default:
					fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resultType":"complete","content":[],"structuredContent":%s}}`, req.ID, c.content)
				}
			})
			_, _, err := client.CallToolAs[sum](context.Background(), connect(t, tr, nil), "add", nil)
			if err == nil {
				t.Fatal("want an error")
			}
			wantErr(t, err, c.want...)
		})
	}
}

// The OAuth seam: a 401 goes to OnUnauthorized, which may ask for one retry
// (after fixing the credentials its http.Client's RoundTripper adds).
func TestHTTPOnUnauthorized(t *testing.T) {
	token := ""
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer good" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="x"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var req wireRequest
		_ = json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, discoverResult)
	}))
	defer hs.Close()
	calls := 0
	tr := client.HTTP(hs.URL)
	tr.Client = &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r.Header.Set("Authorization", "Bearer "+token)
		return http.DefaultTransport.RoundTrip(r)
	})}
	tr.OnUnauthorized = func(ctx context.Context, resp *http.Response) (bool, error) {
		calls++
		if !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
			return false, fmt.Errorf("no challenge")
		}
		token = "good"
		return true, nil
	}
	c := connect(t, tr, nil)
	if calls != 1 || c.ServerInfo() == nil {
		t.Fatalf("OnUnauthorized called %d times; discover %v", calls, c.ServerInfo())
	}

	_, err := client.Connect(context.Background(), client.HTTP(hs.URL), nil)
	if err == nil {
		t.Fatal("Connect without credentials succeeded")
	}
	wantErr(t, err, "HTTP 401")
	var se *client.StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusUnauthorized {
		t.Fatalf("error %v is not a *StatusError 401", err)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// rateBody is the outcome of one POST: status, Retry-After, decoded body.
type rateBody struct {
	status     int
	retryAfter string
	m          map[string]any
}

func ratePost(t *testing.T, c *http.Client, url, id string, hdrs ...string) rateBody {
	t.Helper()
	body := faultCall(id, "weather_current", `{"location":"Paris"}`, defaultMeta)
	resp, err := c.Do(newPost(t, url, body, stdHeaders("tools/call", "weather_current", hdrs...)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := rateBody{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After")}
	if err := json.Unmarshal(raw, &out.m); err != nil {
		t.Fatalf("body %q: %v", raw, err)
	}
	return out
}

func retryAfterOf(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	d, _ := e["data"].(map[string]any)
	n, _ := d["retryAfter"].(float64)
	return n
}

// isRateLimited checks a 429 answer: Retry-After in whole seconds (at
// least 1, at most want), the -32603 error with reason rate_limited and the
// same retryAfter, the request's id.
func isRateLimited(t *testing.T, got rateBody, id string, want int) {
	t.Helper()
	if got.status != http.StatusTooManyRequests || errorCode(got.m) != -32603 || reasonOf(got.m) != reasonRateLimited || idOf(got.m) != id {
		t.Fatalf("over the rate: %d %v, want 429 -32603 reason rate_limited id %s", got.status, got.m, id)
	}
	if got.retryAfter != fmt.Sprint(retryAfterOf(got.m)) || retryAfterOf(got.m) < 1 || retryAfterOf(got.m) > float64(want) {
		t.Fatalf("Retry-After %q, data.retryAfter %v; want the same whole seconds in [1,%d]", got.retryAfter, retryAfterOf(got.m), want)
	}
}

// TestRateLimitHTTPPerAddress: without authentication a client is its
// remote IP address: a burst passes, the request after it is 429 with
// Retry-After (computed from the bucket: at 1 request every 4 s, 4), new
// connections from that address share its bucket, and another address
// has its own.
func TestRateLimitHTTPPerAddress(t *testing.T) {
	k := limitServer(t, Limits{Rate: RateLimit{PerSecond: 0.25, Burst: 3}})
	h := startLimitedHTTP(t, k.s)
	fresh := func(local string) *http.Client { // new connections every request, from local
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
		return &http.Client{Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
	}
	a := fresh("127.0.0.1")
	for i := 1; i <= 3; i++ {
		if got := ratePost(t, a, h.url, fmt.Sprint(i)); got.status != 200 || !isWeather(got.m) {
			t.Fatalf("request %d of the burst: %d %v", i, got.status, got.m)
		}
	}
	isRateLimited(t, ratePost(t, a, h.url, "4"), "4", 4)
	isRateLimited(t, ratePost(t, http.DefaultClient, h.url, "5"), "5", 4) // another connection, same address
	if got := ratePost(t, fresh("127.0.0.2"), h.url, "6"); got.status != 200 || !isWeather(got.m) {
		t.Fatalf("another address: %d %v", got.status, got.m)
	}
}

// TestRateLimitRefill: a refused request costs nothing, and the bucket
// refills at the rate.
func TestRateLimitRefill(t *testing.T) {
	k := limitServer(t, Limits{Rate: RateLimit{PerSecond: 2, Burst: 1}})
	h := startLimitedHTTP(t, k.s)
	if got := ratePost(t, http.DefaultClient, h.url, "1"); got.status != 200 {
		t.Fatalf("first: %v", got)
	}
	for i := range 2 {
		isRateLimited(t, ratePost(t, http.DefaultClient, h.url, fmt.Sprint(10+i)), fmt.Sprint(10+i), 1)
	}
	time.Sleep(550 * time.Millisecond) // > 1/2 s
	if got := ratePost(t, http.DefaultClient, h.url, "2"); got.status != 200 || !isWeather(got.m) {
		t.Fatalf("after the refill: %d %v", got.status, got.m)
	}
}

// TestRateLimitPerPrincipal: with HTTPOptions.Auth a client is its
// principal: alice over her burst gets 429 on any connection, bob on the
// same address is unaffected, and a rejected token does not reach the
// bucket (401 first).
func TestRateLimitPerPrincipal(t *testing.T) {
	s, err := New(Options{Name: "rate", Version: "1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Tools: []Tool{weatherTool()}, Limits: Limits{Rate: RateLimit{PerSecond: 1.0 / 128, Burst: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	auth, err := NewAuth(AuthOptions{Verifier: authTokens, Resource: srv.URL + "/mcp", AuthorizationServers: []string{"https://as.test"}, RequiredScopes: []string{"mcp"}})
	if err != nil {
		t.Fatal(err)
	}
	mux.Handle("/mcp", s.HTTPHandler(HTTPOptions{Auth: auth}))
	url := srv.URL + "/mcp"
	for i := 1; i <= 2; i++ {
		if got := ratePost(t, srv.Client(), url, fmt.Sprint(i), bearer("alice-read")...); got.status != 200 || !isWeather(got.m) {
			t.Fatalf("alice %d: %d %v", i, got.status, got.m)
		}
	}
	isRateLimited(t, ratePost(t, srv.Client(), url, "3", bearer("alice-write")...), "3", 128) // the same principal, another token
	isRateLimited(t, ratePost(t, http.DefaultClient, url, "4", bearer("alice-read")...), "4", 128)
	for i := 5; i <= 6; i++ {
		if got := ratePost(t, srv.Client(), url, fmt.Sprint(i), bearer("bob-write")...); got.status != 200 || !isWeather(got.m) {
			t.Fatalf("bob %d: %d %v", i, got.status, got.m)
		}
	}
	for range 5 {
		if got := ratePost(t, srv.Client(), url, "7", bearer("forged")...); got.status != http.StatusUnauthorized {
			t.Fatalf("a forged token: %d", got.status)
		}
	}
	if n := s.rate.size(); n != 2 {
		t.Fatalf("%d buckets, want 2 (alice, bob)", n)
	}
}

// TestRateLimitKey: RateLimit.Key names the client; an empty key falls
// back to the default.
func TestRateLimitKey(t *testing.T) {
	type tenant struct{}
	k := limitServer(t, Limits{Rate: RateLimit{PerSecond: 1.0 / 128, Burst: 1, Key: func(ctx context.Context) string {
		v, _ := ctx.Value(tenant{}).(string)
		return v
	}}})
	mux := http.NewServeMux()
	inner := k.s.HTTPHandler(HTTPOptions{})
	mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inner.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), tenant{}, r.Header.Get("X-Tenant"))))
	}))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	url := srv.URL + "/mcp"
	if got := ratePost(t, srv.Client(), url, "1", "X-Tenant", "a"); got.status != 200 {
		t.Fatalf("tenant a: %v", got)
	}
	isRateLimited(t, ratePost(t, srv.Client(), url, "2", "X-Tenant", "a"), "2", 128)
	if got := ratePost(t, srv.Client(), url, "3", "X-Tenant", "b"); got.status != 200 {
		t.Fatalf("tenant b: %v", got)
	}
	if got := ratePost(t, srv.Client(), url, "4"); got.status != 200 { // no tenant: the address
		t.Fatalf("no tenant: %v", got)
	}
	isRateLimited(t, ratePost(t, srv.Client(), url, "5"), "5", 128)
}

// TestRateLimitStdio: on stdio the client is the connection; a request
// over the rate is answered at once with -32603, data.reason rate_limited
// and data.retryAfter, and the connection goes on.
func TestRateLimitStdio(t *testing.T) {
	k := limitServer(t, Limits{Rate: RateLimit{PerSecond: 0.5, Burst: 2}})
	f := startFaultStdio(t, k.s, 0)
	for i := 1; i <= 3; i++ {
		f.send(faultCall(fmt.Sprint(i), "weather_current", `{"location":"Paris"}`, defaultMeta))
	}
	got := map[string]map[string]any{}
	for range 3 {
		m := f.reply()
		got[idOf(m)] = m
	}
	if !isWeather(got["1"]) || !isWeather(got["2"]) {
		t.Fatalf("the burst: %v", got)
	}
	if m := got["3"]; errorCode(m) != -32603 || reasonOf(m) != reasonRateLimited || retryAfterOf(m) != 2 {
		t.Fatalf("over the rate: %v, want -32603 reason rate_limited retryAfter 2", m)
	}
	f.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`) // a notification gets no answer, rate or not
	f2 := startFaultStdio(t, k.s, 0)                                                        // another connection: another client
	f2.send(faultCall("1", "weather_current", `{"location":"Paris"}`, defaultMeta))
	if m := f2.reply(); !isWeather(m) {
		t.Fatalf("another connection: %v", m)
	}
	for _, c := range []*faultStdio{f, f2} {
		if err, _, rest := c.closeIn(5 * time.Second); err != nil || len(rest) != 0 {
			t.Fatalf("close: %v %q", err, rest)
		}
	}
}

// TestRateLimitOff: the zero value and a rate of 0 or less keep no table.
func TestRateLimitOff(t *testing.T) {
	for _, r := range []RateLimit{{}, {PerSecond: -1, Burst: 5}, {Burst: 5}} {
		if newRateTable(r) != nil {
			t.Errorf("%+v: rate limiting on", r)
		}
	}
	if tb := newRateTable(RateLimit{PerSecond: 2.5}); tb == nil || tb.burst != 3 || tb.max != defaultRateMaxClients {
		t.Errorf("defaults: %+v, want burst 3 (2.5 rounded up), max %d", tb, defaultRateMaxClients)
	}
}

// TestRateLimitKeyRotationBounded: an attacker sending each request under a
// new key (addresses, tokens) cannot grow the table past MaxClients, gets
// one client's rate across all its new keys once the table is full, and
// does not evict the buckets of the clients already known; buckets idle
// long enough to be full again make room.
func TestRateLimitKeyRotationBounded(t *testing.T) {
	tb := newRateTable(RateLimit{PerSecond: 1, Burst: 2, MaxClients: 100})
	now := time.Now()
	for i := range 100 {
		k := fmt.Sprint("known-", i)
		for range 2 {
			if tb.take(k, now) != 0 {
				t.Fatalf("client %s: its burst refused", k)
			}
		}
	}
	admitted := 0
	for i := range 100_000 {
		if tb.take(fmt.Sprint("rotated-", i), now.Add(time.Duration(i)*time.Microsecond)) == 0 {
			admitted++
		}
	}
	if n := tb.size(); n != 100 {
		t.Fatalf("%d buckets after 100 000 rotated keys, want the cap 100", n)
	}
	// 0.1 s of rotation at 1/s with a burst of 2: the overflow bucket
	// admits 2.
	if admitted != 2 {
		t.Fatalf("the rotated keys had %d requests admitted, want 2 (one client's burst)", admitted)
	}
	later := now.Add(100 * time.Millisecond)
	for i := range 100 {
		if tb.take(fmt.Sprint("known-", i), later) == 0 {
			t.Fatalf("known client %d: its empty bucket was replaced by a full one", i)
		}
	}
	// Two seconds on, every bucket is full: new clients take their slots.
	idle := now.Add(3 * time.Second)
	for i := range 100 {
		if tb.take(fmt.Sprint("new-", i), idle) != 0 {
			t.Fatalf("new client %d refused after the others idled", i)
		}
	}
	if n := tb.size(); n != 100 {
		t.Fatalf("%d buckets, want 100", n)
	}
}

// TestRateLimitRetryAfter: Retry-After rounds the bucket's wait up to whole
// seconds, at least 1.
func TestRateLimitRetryAfter(t *testing.T) {
	for _, c := range []struct {
		wait time.Duration
		want int64
	}{{time.Millisecond, 1}, {time.Second, 1}, {1001 * time.Millisecond, 2}, {90 * time.Second, 90}} {
		r := rateRefusal{wait: c.wait}
		if got := r.retryAfter(); got != c.want {
			t.Errorf("wait %v: Retry-After %d, want %d", c.wait, got, c.want)
		}
		if !strings.Contains(string(r.err().Data), fmt.Sprintf(`"retryAfter":%d`, c.want)) {
			t.Errorf("wait %v: data %s", c.wait, r.err().Data)
		}
	}
}

// BenchmarkRateLimitTake is the cost rate limiting adds to a request: one
// known client, and a key-rotating caller against a full table.
func BenchmarkRateLimitTake(b *testing.B) {
	b.Run("known", func(b *testing.B) {
		tb := newRateTable(RateLimit{PerSecond: 1e9, Burst: 1 << 30})
		now := time.Now()
		b.ReportAllocs()
		for b.Loop() {
			tb.take("principal\x00https://as.test\x00alice", now)
		}
	})
	b.Run("rotating", func(b *testing.B) {
		tb := newRateTable(RateLimit{PerSecond: 1, Burst: 1, MaxClients: 1000})
		now := time.Now()
		keys := make([]string, 4096)
		for i := range keys {
			keys[i] = fmt.Sprint("http:10.0.", i/256, ".", i%256)
		}
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			tb.take(keys[i%len(keys)], now)
			i++
		}
	})
}

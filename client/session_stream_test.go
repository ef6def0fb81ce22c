package client_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/client"
	"github.com/mcpgen/mcpgen/server"
)

// README ("The Go client"): a legacy HTTP session's GET stream is
// "reopened with backoff"; session_stream.go: "A stream that ends is
// reopened with backoff until Close." A server whose GET stream opens (200,
// text/event-stream) and ends at once, every time, is reopened with a
// doubling wait: an open alone does not reset it, only a stream that
// delivered a message or lived a while (about 5 GETs in 2 s from 100 ms;
// 20 if every open reset the wait).
func TestLegacySessionStreamThatEndsAtOnceBacksOff(t *testing.T) {
	srv := testServer(t)
	inner := srv.HTTPHandler(server.HTTPOptions{})
	var gets atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets.Add(1)
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			return // the stream ends at once
		}
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.HTTP(hs.URL), &client.Options{Era: client.EraLegacy})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	time.Sleep(2 * time.Second)
	if n := gets.Load(); n > 10 {
		t.Errorf("%d GET streams opened in 2 s for a stream that ends at once: no backoff", n)
	}
}

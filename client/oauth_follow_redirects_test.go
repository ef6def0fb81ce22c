package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestFollowRedirectsMatchesTheRedirectURIExactly: the redirect URI is
// compared by scheme, host and path, not as a prefix of the hop's text, so a
// hop to `<redirect URI>.evil` or `<redirect URI>/more` is not taken for the
// callback and its code is not returned.
func TestFollowRedirectsMatchesTheRedirectURIExactly(t *testing.T) {
	for _, hop := range []string{"/callback.evil?code=stolen", "/callbackx?code=stolen", "/callback/more?code=stolen"} {
		t.Run(hop, func(t *testing.T) {
			var as *httptest.Server
			as = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/authorize" {
					http.Redirect(w, r, as.URL+hop, http.StatusFound)
					return
				}
				w.WriteHeader(http.StatusOK) // a page, not the callback
			}))
			defer as.Close()
			authorize := FollowRedirects(as.Client(), as.URL+"/callback")
			got, err := authorize(context.Background(), as.URL+"/authorize?state=s")
			if err == nil {
				t.Fatalf("hop %s was taken for the redirect URI %s/callback: returned %v", hop, as.URL, got)
			}
			if !strings.Contains(err.Error(), "authorization stopped") {
				t.Errorf("err = %v, want the flow to stop at the page", err)
			}
		})
	}
}

// TestFollowRedirectsReturnsTheCallbackWithItsQuery: the hop to the redirect
// URI itself (scheme and host in any case, its own query kept) is returned.
func TestFollowRedirectsReturnsTheCallbackWithItsQuery(t *testing.T) {
	var as *httptest.Server
	as = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.Replace(as.URL, "http://", "HTTP://", 1)+"/callback?app=1&code=c&state=s", http.StatusFound)
	}))
	defer as.Close()
	authorize := FollowRedirects(as.Client(), as.URL+"/callback?app=1")
	got, err := authorize(context.Background(), as.URL+"/authorize?state=s")
	if err != nil {
		t.Fatal(err)
	}
	if got.Query().Get("code") != "c" {
		t.Errorf("returned %v, want the callback with its code", got)
	}
	// A hop that drops the redirect URI's own query is not the callback.
	as2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/authorize" {
			http.Redirect(w, r, "/callback?code=c", http.StatusFound)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer as2.Close()
	if got, err := FollowRedirects(as2.Client(), as2.URL+"/callback?app=1")(context.Background(), as2.URL+"/authorize"); err == nil {
		t.Errorf("a hop without the redirect URI's query app=1 was returned: %v", got)
	}
}

// TestFollowRedirectsTakesAnEmptyPathForSlash: a redirect URI without a
// path (http://127.0.0.1:PORT, a native app's loopback listener) and the
// authorization server's redirect to it with the path "/" name one
// resource (RFC 3986 §6.2.3: an empty path of an http(s) URI is "/"); the
// prefix comparison FollowRedirects made before took that hop for the
// callback. It was then fetched instead: the code went to the listener as
// a plain GET and the flow failed ("authorization stopped"). Either way
// round, the hop is returned and never fetched.
func TestFollowRedirectsTakesAnEmptyPathForSlash(t *testing.T) {
	for _, c := range []struct{ redirect, hop string }{{"", "/"}, {"/", ""}} {
		fetched := 0
		callback := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fetched++
			w.WriteHeader(http.StatusOK)
		}))
		as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, callback.URL+c.hop+"?code=c&state=s", http.StatusFound)
		}))
		got, err := FollowRedirects(as.Client(), callback.URL+c.redirect)(context.Background(), as.URL+"/authorize?state=s")
		if err != nil || got.Query().Get("code") != "c" || fetched != 0 {
			t.Errorf("redirect URI %q, hop %q: returned %v, %v, the callback fetched %d times; want the hop returned, not fetched",
				callback.URL+c.redirect, callback.URL+c.hop+"?code=c&state=s", got, err, fetched)
		}
		as.Close()
		callback.Close()
	}
}

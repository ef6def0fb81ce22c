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

package rediscluster

import (
	"strings"
	"testing"
)

// README/Connect doc: "Its errors name the URL without its password."
// A password that contains a character url.Parse reads as the end of the
// authority ('/', '?', '#': common in generated passwords) must not reach
// the error either, in whole or in part.
func TestAttackConnectErrorHidesUnescapedPassword(t *testing.T) {
	for _, tc := range []struct{ url, secret string }{
		{"redis://user:s3cret/tail@127.0.0.1:1/0", "s3cret"},
		{"redis://:s3cret/tail@127.0.0.1:1", "s3cret"},
		{"redis://:s3cret#tail@127.0.0.1:1", "s3cret"},
		{"redis://:s3cret?tail@127.0.0.1:1", "s3cret"},
		{"redis://:1234/s3cret@127.0.0.1:1", "s3cret"},
	} {
		_, err := Connect(tc.url, Options{})
		if err == nil {
			t.Errorf("Connect(%q) succeeded", tc.url)
			continue
		}
		if strings.Contains(err.Error(), tc.secret) {
			t.Errorf("Connect(%q): the error shows (part of) the password: %v", tc.url, err)
		}
	}
}

// A password given as a query parameter (go-redis refuses the option) is
// quoted whole with the URL: Redacted only hides userinfo.
func TestAttackConnectErrorHidesQueryPassword(t *testing.T) {
	for _, tc := range []struct{ url, secret string }{
		{"redis://127.0.0.1:1/0?password=s3cret", "s3cret"},
	} {
		_, err := Connect(tc.url, Options{})
		if err == nil {
			t.Errorf("Connect(%q) succeeded", tc.url)
			continue
		}
		if strings.Contains(err.Error(), tc.secret) {
			t.Errorf("Connect(%q): the error shows (part of) the password: %v", tc.url, err)
		}
	}
}

package rediscluster

import (
	"strings"
	"testing"
)

// A password in the URL must not reach the error (and so the logs) when
// Connect fails: not to connect, nor to parse the URL.
func TestConnectErrorHidesPassword(t *testing.T) {
	for _, url := range []string{
		"redis://user:s3cret@127.0.0.1:1/0",
		"redis://:s3cret@127.0.0.1:1",
		"redis://user:s3cret@127.0.0.1:1/notadb",
		"redis://user:s3cret@127.0.0.1:bad",
		"redis://user:s3cret@[::1",
		"http://user:s3cret@127.0.0.1:1",
	} {
		_, err := Connect(url, Options{})
		if err == nil {
			t.Fatalf("Connect(%q) succeeded", url)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Connect(%q): the error shows the password: %v", url, err)
		}
	}
}

// README/Connect doc: "Its errors name the URL without its password."
// A password that contains a character url.Parse reads as the end of the
// authority ('/', '?', '#': common in generated passwords) must not reach
// the error either, in whole or in part.
func TestConnectErrorHidesPasswordHoldingURLDelimiters(t *testing.T) {
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
func TestConnectErrorHidesQueryPassword(t *testing.T) {
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

// README (cluster): "`Connect`'s errors show the URL without its password
// ..., without Redis query values that look like secrets (`password=`,
// `token=`, …), and quote nothing of a URL that does not parse or has an
// `@` after its host". Connect's doc: "a URL that does not parse is refused
// with an error that quotes none of it".
//
//   - "redis://user:s3cret" (the host left out) does not parse: url.Parse
//     reads the password as the port, and the error quotes
//     `invalid port ":s3cret" after host`.
//   - "redis:/user:s3cret@127.0.0.1:1" (one slash) has its '@' after its
//     (empty) host, and go-redis's "invalid database number" quotes it.
//   - a query whose only pair url.ParseQuery drops (a ';' or a bad escape in
//     it) would keep its raw text: "password=s3cret;x".
func TestConnectErrorQuotesNothingOfABadURL(t *testing.T) {
	for _, url := range []string{
		"redis://user:s3cret",
		"redis://:s3cret",
		"redis:/user:s3cret@127.0.0.1:1",
		"redis://127.0.0.1:1/0?password=s3cret;x",
		"redis://127.0.0.1:1/0?token=s3cret%zz",
	} {
		_, err := Connect(url, Options{})
		if err == nil {
			t.Errorf("Connect(%q) succeeded", url)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Connect(%q): the error shows the secret: %v", url, err)
		}
	}
}

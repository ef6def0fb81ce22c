package natscluster

import (
	"strings"
	"testing"
)

// A password or a token in the URL must not reach the error (and so the
// logs) when Connect fails.
func TestConnectErrorHidesPassword(t *testing.T) {
	for _, url := range []string{
		"nats://user:s3cret@127.0.0.1:1",
		"nats://s3cret@127.0.0.1:1",
		"nats://127.0.0.1:1,nats://user:s3cret@127.0.0.1:2",
		"nats://user:s3cret@127.0.0.1:bad",
		"nats://user:s3cret@[::1",
	} {
		_, err := Connect(url, Options{})
		if err == nil {
			t.Fatalf("Connect(%q) succeeded", url)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Connect(%q): the error shows the secret: %v", url, err)
		}
	}
}

// Connect's doc: "Its errors name the URL without its password or token."
// A password or token holding a character url.Parse reads as the end of
// the authority ('/', '?', '#'), or a comma (the server-list separator),
// must not reach the error either, in whole or in part.
func TestConnectErrorHidesSecretHoldingURLDelimiters(t *testing.T) {
	checkConnectHides(t, []urlSecret{
		{"nats://user:s3cret/tail@127.0.0.1:1", "s3cret"},
		{"nats://user:s3cret#tail@127.0.0.1:1", "s3cret"},
		{"nats://:s3cret?tail@127.0.0.1:1", "s3cret"},
	})
}

// nats.go reads a server URL without "://" as nats://<it>
// (parseServerURL), so "user:pass@host:port" and "token@host" are URLs
// with a password or a token; the redaction reads the first as a URL of
// scheme "user" and the second as a path, and quotes both whole.
func TestConnectErrorHidesSecretOfSchemelessServer(t *testing.T) {
	checkConnectHides(t, []urlSecret{
		{"user:s3cret@127.0.0.1:1", "s3cret"},
		{"nats://127.0.0.1:1, user:s3cret@127.0.0.1:2", "s3cret"},
		{"s3cret@127.0.0.1", "s3cret"},
	})
}

// README (cluster): "`Connect`'s errors show the URL without its password
// (or NATS token) ... and quote nothing of a URL that does not parse";
// Connect's doc: "a URL that does not parse is refused with an error that
// quotes none of it". An entry whose host was left out
// ("nats://user:s3cret", "user:s3cret") does not parse — url.Parse reads
// the password as the port — and the error quotes
// `invalid port ":s3cret" after host`; a password holding the list's ','
// ("nats://u:s3,cret@…") leaves an entry "nats://u:s3" quoted the same way.
func TestConnectErrorQuotesNothingOfAnEntryThatDoesNotParse(t *testing.T) {
	checkConnectHides(t, []urlSecret{
		{"nats://user:s3cret", "s3cret"},
		{"user:s3cret", "s3cret"},
		{"nats://127.0.0.1:1,nats://u:s3cret", "s3cret"},
		{"nats://u:s3,cret@127.0.0.1:1", ":s3"},
	})
}

// urlSecret is a Connect URL and a secret of it no error may show.
type urlSecret struct{ url, secret string }

// checkConnectHides connects to each URL, which must fail, and checks that
// the error shows nothing of its secret.
func checkConnectHides(t *testing.T, cases []urlSecret) {
	t.Helper()
	for _, tc := range cases {
		_, err := Connect(tc.url, Options{})
		if err == nil {
			t.Errorf("Connect(%q) succeeded", tc.url)
			continue
		}
		if strings.Contains(err.Error(), tc.secret) {
			t.Errorf("Connect(%q): the error shows (part of) the secret: %v", tc.url, err)
		}
	}
}

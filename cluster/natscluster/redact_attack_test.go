package natscluster

import (
	"strings"
	"testing"
)

// README (cluster): "`Connect`'s errors show the URL without its password
// (or NATS token) ... and quote nothing of a URL that does not parse";
// Connect's doc: "a URL that does not parse is refused with an error that
// quotes none of it". An entry whose host was left out
// ("nats://user:s3cret", "user:s3cret") does not parse — url.Parse reads
// the password as the port — and the error quotes
// `invalid port ":s3cret" after host`; a password holding the list's ','
// ("nats://u:s3,cret@…") leaves an entry "nats://u:s3" quoted the same way.
func TestConnectErrorQuotesNothingOfAnEntryThatDoesNotParse(t *testing.T) {
	for _, tc := range []struct{ url, secret string }{
		{"nats://user:s3cret", "s3cret"},
		{"user:s3cret", "s3cret"},
		{"nats://127.0.0.1:1,nats://u:s3cret", "s3cret"},
		{"nats://u:s3,cret@127.0.0.1:1", ":s3"},
	} {
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

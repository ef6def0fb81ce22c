package rediscluster

import (
	"strings"
	"testing"
)

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
//     (empty) host; credentialsSplit looks only past "://", so the URL is
//     quoted whole, and go-redis's "invalid database number" quotes it again.
//   - a query whose only pair url.ParseQuery drops (a ';' or a bad escape in
//     it) keeps its raw text: "password=s3cret;x" is shown as is.
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

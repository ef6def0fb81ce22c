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

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

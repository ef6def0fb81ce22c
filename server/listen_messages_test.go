package server

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// A listen stream's list_changed goes out on HTTP as the SSE event of the
// notification Notify would have sent, and after the first time (which
// encodes it and opens the stream) without allocating: a change fanned out
// to many streams costs their writes, not an encoding each.
func TestListChangedOnHTTPEncodedOnce(t *testing.T) {
	tag := []byte(`{"io.modelcontextprotocol/subscriptionId":"a\u00e9"}`)
	plain := append(append([]byte(`{"_meta":`), tag...), '}')
	rec := httptest.NewRecorder()
	viaNotify := newHTTPStream(context.Background(), rec, true, -time.Second)
	if err := viaNotify.Notify(listChangedMethods[changeTools], plain); err != nil {
		t.Fatal(err)
	}
	rec2 := httptest.NewRecorder()
	m := &listChangedMessages{plain: plain}
	st := newHTTPStream(context.Background(), rec2, true, -time.Second)
	if err := m.sendListChanged(st, changeTools); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rec.Body.Bytes(), rec2.Body.Bytes()) {
		t.Errorf("encoded once: %q\nthrough Notify: %q", rec2.Body.Bytes(), rec.Body.Bytes())
	}

	st = newHTTPStream(context.Background(), discardResponse{}, true, -time.Second)
	if err := m.sendListChanged(st, changeTools); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() {
		if err := m.sendListChanged(st, changeTools); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per list_changed, want 0", n)
	}
}

// discardResponse is an http.ResponseWriter that can flush and keeps nothing.
type discardResponse struct{}

func (discardResponse) Header() http.Header         { return http.Header{} }
func (discardResponse) Write(p []byte) (int, error) { return len(p), nil }
func (discardResponse) WriteHeader(int)             {}
func (discardResponse) Flush()                      {}

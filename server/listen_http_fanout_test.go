package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Over HTTP, where a stream's list_changed is encoded once and resent
// (rawSender), every stream of a fan-out gets its own subscriptionId on
// every notification, streams whose client goes away end, and a Shutdown
// during the fan-out ends the rest with their result.
func TestHTTPListenFanOutKeepsEachStreamsTag(t *testing.T) {
	f := newFixture(t)
	srv := httptest.NewServer(f.s.HTTPHandler(HTTPOptions{}))
	defer srv.Close()
	const n = 12
	type stream struct {
		r      *sseReader
		cancel context.CancelFunc
		id     string
	}
	streams := make([]stream, n)
	for i := range streams {
		ctx, cancel := context.WithCancel(context.Background())
		id := strconv.Itoa(100 + i)
		r, resp := openListen(t, ctx, srv.URL, id, `{"toolsListChanged":true,"promptsListChanged":true}`)
		defer resp.Body.Close()
		streams[i] = stream{r: r, cancel: cancel, id: id}
	}
	stop := make(chan struct{})
	var pub sync.WaitGroup
	pub.Add(1)
	go func() {
		defer pub.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			f.s.subs.publish(changeTools, "")
			f.s.subs.publish(changePrompts, "")
			time.Sleep(100 * time.Microsecond)
		}
	}()
	errs := make(chan error, n)
	var readers sync.WaitGroup
	for i, st := range streams {
		readers.Add(1)
		go func() {
			defer readers.Done()
			ended := false
			for {
				b, err := st.r.next()
				if err != nil {
					if i%2 == 0 || ended {
						return // cancelled by its client, or ended
					}
					errs <- errors.New("stream " + st.id + " broke off without its result: " + err.Error())
					return
				}
				var m struct {
					Method string          `json:"method"`
					ID     json.RawMessage `json:"id"`
					Params struct {
						Meta map[string]json.RawMessage `json:"_meta"`
					} `json:"params"`
					Result struct {
						Meta map[string]json.RawMessage `json:"_meta"`
					} `json:"result"`
				}
				if err := json.Unmarshal(b, &m); err != nil {
					errs <- err
					return
				}
				meta := m.Params.Meta
				if m.Method == "" {
					meta, ended = m.Result.Meta, true
				}
				if got := string(meta["io.modelcontextprotocol/subscriptionId"]); got != st.id {
					errs <- errors.New("stream " + st.id + " got " + string(b))
					return
				}
			}
		}()
	}
	time.Sleep(30 * time.Millisecond)
	for i := 0; i < n; i += 2 {
		streams[i].cancel()
	}
	time.Sleep(30 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	err := f.s.Shutdown(ctx)
	cancel()
	close(stop)
	pub.Wait()
	if err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	done := make(chan struct{})
	go func() { readers.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("streams still open after Shutdown")
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, st := range streams {
		st.cancel()
	}
}

package rediscluster

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// outageProxy forwards TCP to a redis-server unix socket; cut closes every
// connection and refuses new ones until restore (a network partition of
// one replica from Redis).
type outageProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	down   bool
	conns  map[net.Conn]bool
}

func newOutageProxy(t *testing.T, sock string) *outageProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &outageProxy{ln: ln, target: sock, conns: map[net.Conn]bool{}}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); p.cut(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			if p.down {
				p.mu.Unlock()
				c.Close()
				continue
			}
			s, err := net.Dial("unix", p.target)
			if err != nil {
				p.mu.Unlock()
				c.Close()
				continue
			}
			p.conns[c], p.conns[s] = true, true
			p.mu.Unlock()
			wg.Add(2)
			go func() { defer wg.Done(); io.Copy(s, c); s.Close(); c.Close() }()
			go func() { defer wg.Done(); io.Copy(c, s); s.Close(); c.Close() }()
		}
	}()
	return p
}

func (p *outageProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

func (p *outageProxy) restore() {
	p.mu.Lock()
	p.down = false
	p.mu.Unlock()
}

// README ("Running several replicas"): a listen stream that names tasks
// "gets notifications/tasks … on whichever replica it is open, each time
// one of them changes status"; the README owns that pub/sub is at most
// once and that a replica re-reads records so that a lost change message
// costs at most about a second. Replica B loses Redis for a moment (its
// subscription reconnects by itself) while the task completes on A: the
// ChangeTask is lost, and B's stream reports the completion at its next
// re-read of the record (every 4 s, with its check of the owner's
// heartbeat).
func TestListenStreamReportsStatusWhoseMessageWasLost(t *testing.T) {
	url := startRedis(t)
	p := newOutageProxy(t, url[len("unix://"):])
	release := make(chan struct{})
	mk := func(c server.Cluster) *server.Server { return jobServer(t, c, release) }
	bc, err := Connect("redis://"+p.ln.Addr().String(), Options{Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bc.Close() })
	a, b := mk(connect(t, url)), mk(bc)
	res, rpcErr := callTask(t, a, "tools/call", `"name":"job","arguments":{}`)
	id, _ := res["taskId"].(string)
	if rpcErr != nil || id == "" {
		t.Fatalf("tools/call: %v %v", res, rpcErr)
	}
	st := make(notes, 64)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		msg := `{"jsonrpc":"2.0","id":"listen","method":"subscriptions/listen","params":{"_meta":` + taskMeta + `,"notifications":{"taskIds":["` + id + `"]}}}`
		b.HandleBytes(ctx, []byte(msg), st)
	}()
	t.Cleanup(func() { cancel(); <-done })
	for range 2 { // the acknowledgement, then the task's status "working"
		select {
		case <-st:
		case <-time.After(5 * time.Second):
			t.Fatal("listen: no acknowledgement or first status")
		}
	}
	p.cut()
	close(release) // completes on A while B is cut off
	deadline := time.Now().Add(300 * time.Millisecond)
	for time.Now().Before(deadline) {
		if r, _ := callTask(t, a, "tasks/get", `"taskId":"`+id+`"`); r["status"] == server.TaskCompleted {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	p.restore()
	for deadline := time.Now().Add(6 * time.Second); time.Now().Before(deadline); {
		select {
		case n := <-st:
			var m map[string]any
			_ = json.Unmarshal([]byte(n[1]), &m)
			if m["status"] == server.TaskCompleted {
				return
			}
		case <-time.After(time.Until(deadline)):
		}
	}
	got, _ := callTask(t, b, "tasks/get", `"taskId":"`+id+`"`)
	t.Fatalf("B's listen stream never reported the task completed after B's Redis connection came back (tasks/get on B says %v)", got["status"])
}

package rediscluster

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// replyDropper is a TCP proxy in front of a redis-server unix socket that,
// once armed, lets the next command naming trigger reach Redis and run,
// then closes the client's connection instead of relaying the reply: a
// reply lost to a network blip or a failover, after the write was made.
type replyDropper struct {
	ln      net.Listener
	target  string
	trigger []byte
	armed   atomic.Bool
	wg      sync.WaitGroup
}

func newReplyDropper(t *testing.T, sock string, trigger string) *replyDropper {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &replyDropper{ln: ln, target: sock, trigger: []byte(trigger)}
	t.Cleanup(func() { ln.Close(); p.wg.Wait() })
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.wg.Add(1)
			go func() { defer p.wg.Done(); p.serve(c) }()
		}
	}()
	return p
}

func (p *replyDropper) serve(client net.Conn) {
	defer client.Close()
	srv, err := net.Dial("unix", p.target)
	if err != nil {
		return
	}
	defer srv.Close()
	var drop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 64<<10)
		for {
			n, err := srv.Read(buf)
			if n > 0 {
				if drop.Load() {
					client.Close()
					srv.Close()
					return
				}
				if _, werr := client.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				client.Close()
				return
			}
		}
	}()
	buf := make([]byte, 64<<10)
	for {
		n, err := client.Read(buf)
		if n > 0 {
			if bytes.Contains(buf[:n], p.trigger) && p.armed.CompareAndSwap(true, false) {
				drop.Store(true)
			}
			if _, werr := srv.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	srv.Close()
	<-done
}

// server.TaskStore: "Create stores a new record that expires at expires
// (ErrTaskExists when id is taken)", and the owner "writes again a change
// whose write failed (a store blip or failover)" (README, "Running several
// replicas"). A Create whose reply is lost after Redis ran it is tried
// again by go-redis (MaxRetries), and the retry finds the record the
// first attempt stored: it must know it for its own (the revision it drew
// is stored), not answer ErrTaskExists for an id no one else took.
func TestCreateWhoseReplyWasLostSucceeds(t *testing.T) {
	url := startRedis(t)
	sock := url[len("unix://"):]
	p := newReplyDropper(t, sock, "redis.call('EXISTS', KEYS[1])")
	c, err := Connect("redis://"+p.ln.Addr().String(), Options{Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := t.Context()
	id := "0123456789abcdef0123456789abcdef"
	p.armed.Store(true)
	err = c.Tasks().Create(ctx, id, []byte(`{"status":"working"}`), time.Now().Add(time.Minute))
	if p.armed.Load() {
		t.Fatal("the proxy never saw the Create script")
	}
	if errors.Is(err, server.ErrTaskExists) {
		rec, _, lerr := c.Tasks().Load(ctx, id)
		t.Fatalf("Create of a fresh id whose first reply was lost: %v (the record it stored: %s %v); want nil (or the transport error), not ErrTaskExists", err, rec, lerr)
	}
}

// The same lost reply seen by a client: a task-augmented tools/call must
// answer the CreateTaskResult of the task it started, not -32603 "task
// already exists".
func TestToolsCallAnswersTaskWhoseCreateReplyWasLost(t *testing.T) {
	url := startRedis(t)
	sock := url[len("unix://"):]
	p := newReplyDropper(t, sock, "redis.call('EXISTS', KEYS[1])")
	c, err := Connect("redis://"+p.ln.Addr().String(), Options{Name: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	srv, err := server.New(server.Options{Name: "r", Version: "1", Cluster: c,
		Tools: []server.Tool{server.NewTool(server.ToolInfo{Name: "job", TaskSupport: server.TaskSupportRequired},
			func(ctx context.Context, _ struct{}) (string, error) { return "done", nil })},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	p.armed.Store(true)
	res, rpcErr := callTask(t, srv, "tools/call", `"name":"job","arguments":{}`)
	if rpcErr != nil || res["taskId"] == nil {
		t.Fatalf("tools/call whose record Create lost its reply: result %v, error %v; want the CreateTaskResult", res, rpcErr)
	}
}

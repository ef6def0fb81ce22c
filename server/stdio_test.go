package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// stdioPeer drives ServeStdio through pipes, as a client process would.
type stdioPeer struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
	mu    sync.Mutex
}

func startStdio(t *testing.T, s *Server, maxLine int) *stdioPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &stdioPeer{t: t, in: inW, lines: make(chan string, 1000), done: make(chan error, 1)}
	go func() {
		err := s.serveStdio(context.Background(), inR, outW, maxLine)
		outW.Close()
		p.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() { inW.Close() })
	return p
}

func (p *stdioPeer) send(line string) {
	p.t.Helper()
	if err := p.write(line); err != nil {
		p.t.Fatalf("write: %v", err)
	}
}

// write sends one line; unlike send it may be called from any goroutine.
func (p *stdioPeer) write(line string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, err := io.WriteString(p.in, line+"\n")
	return err
}

func (p *stdioPeer) request(id, method, params string) {
	p.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":` + withMeta(params, defaultMeta) + `}`)
}

// next returns the next line as a generic message.
func (p *stdioPeer) next() map[string]any {
	p.t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			p.t.Fatal("output closed")
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			p.t.Fatalf("output line is not JSON: %q", line)
		}
		return m
	case <-time.After(3 * time.Second):
		p.t.Fatal("no output line")
		return nil
	}
}

func idOf(m map[string]any) string {
	b, _ := json.Marshal(m["id"])
	return string(b)
}

func TestStdioPipelinedOutOfOrder(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 0)
	p.request("1", "tools/call", `{"name":"slow","arguments":{"tag":"a"}}`)
	if tag := <-f.gate.started; tag != "a" {
		t.Fatalf("started %q", tag)
	}
	p.request("2", "tools/call", `{"name":"echo","arguments":{"text":"quick"}}`)
	if m := p.next(); idOf(m) != "2" {
		t.Fatalf("first answer %v, want id 2 (the quick one)", m)
	}
	close(f.gate.release)
	m := p.next()
	if idOf(m) != "1" || !strings.Contains(fmt.Sprint(m["result"]), "released a") {
		t.Fatalf("slow answer %v", m)
	}
}

func TestStdioCancellation(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 0)
	p.request(`"slow-1"`, "tools/call", `{"name":"slow","arguments":{"tag":"c"}}`)
	<-f.gate.started
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"slow-1","reason":"user"}}`)
	select {
	case tag := <-f.gate.cancelled:
		if tag != "c" {
			t.Fatalf("cancelled %q", tag)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("handler context not cancelled")
	}
	// Unknown and malformed cancellations are ignored.
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"nope"}}`)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}`)
	p.request("3", "tools/list", `{}`)
	if m := p.next(); idOf(m) != "3" {
		t.Fatalf("got %v; nothing may be sent for the cancelled request", m)
	}
}

func TestStdioBadInput(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 512)
	p.send(`{"jsonrpc":"2.0","id":1,"method":`)
	m := p.next()
	if code := m["error"].(map[string]any)["code"]; code != -32700.0 || m["id"] != nil {
		t.Errorf("parse error %v", m)
	}
	p.send(`{"jsonrpc":"2.0","id":9}`)
	if m := p.next(); m["error"].(map[string]any)["code"] != -32600.0 || idOf(m) != "9" {
		t.Errorf("invalid request %v", m)
	}
	p.send(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"x":"` + strings.Repeat("a", 2000) + `"}}`)
	if m := p.next(); m["error"].(map[string]any)["code"] != -32600.0 {
		t.Errorf("oversize line %v", m)
	}
	p.send(`   `) // blank lines are skipped
	p.request("11", "server/discover", `{}`)
	if m := p.next(); idOf(m) != "11" || m["result"] == nil {
		t.Errorf("after bad input %v", m)
	}
	// Responses from the client are ignored.
	p.send(`{"jsonrpc":"2.0","id":12,"result":{}}`)
	p.request("13", "tools/list", `{}`)
	if m := p.next(); idOf(m) != "13" {
		t.Errorf("after a client response %v", m)
	}
}

func TestStdioDuplicateInFlightID(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 0)
	p.request("1", "tools/call", `{"name":"slow","arguments":{"tag":"d"}}`)
	<-f.gate.started
	p.request("1", "tools/list", `{}`)
	if m := p.next(); idOf(m) != "1" || m["error"] == nil {
		t.Fatalf("duplicate id %v", m)
	}
	close(f.gate.release)
	if m := p.next(); idOf(m) != "1" || m["result"] == nil {
		t.Fatalf("original answer %v", m)
	}
}

func TestStdioEOF(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 0)
	p.request("1", "tools/call", `{"name":"sleep","arguments":{"ms":100}}`)
	l := `{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":` + withMeta(`{"notifications":{"toolsListChanged":true}}`, defaultMeta) + `}`
	p.send(l)
	if m := p.next(); m["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("ack %v", m)
	}
	start := time.Now()
	p.in.Close()
	// The in-flight call finishes and is answered; the listen stream just ends.
	if m := p.next(); idOf(m) != "1" {
		t.Fatalf("in-flight answer %v", m)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("ServeStdio did not exit on EOF")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("exit took %v", d)
	}
	if line, ok := <-p.lines; ok {
		t.Errorf("extra output after EOF: %s", line)
	}
}

func TestStdioListenShutdown(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 0)
	p.send(`{"jsonrpc":"2.0","id":40,"method":"subscriptions/listen","params":` + withMeta(`{"notifications":{"toolsListChanged":true}}`, defaultMeta) + `}`)
	if m := p.next(); m["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("ack %v", m)
	}
	f.s.RemoveTools("echo")
	m := p.next()
	if m["method"] != "notifications/tools/list_changed" || !strings.Contains(fmt.Sprint(m["params"]), "subscriptionId:40") {
		t.Fatalf("list_changed %v", m)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	go f.s.Shutdown(ctx)
	m = p.next()
	if idOf(m) != "40" || m["result"] == nil {
		t.Fatalf("listen result %v", m)
	}
	m = p.next()
	if m["method"] != "notifications/cancelled" || fmt.Sprint(m["params"].(map[string]any)["requestId"]) != "40" {
		t.Fatalf("stdio end of stream %v", m)
	}
}

// Many concurrent requests with notifications: every line is one whole
// JSON message and every request is answered once.
func TestStdioLinesNeverInterleave(t *testing.T) {
	f := newFixture(t)
	p := startStdio(t, f.s, 0)
	const n = 60
	meta := `{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"t"}`
	writes := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			writes <- p.write(`{"jsonrpc":"2.0","id":` + itoa(i) + `,"method":"tools/call","params":` + withMeta(`{"name":"progress"}`, meta) + `}`)
		}()
	}
	defer func() {
		for i := 0; i < n; i++ {
			if err := <-writes; err != nil {
				t.Errorf("write: %v", err)
			}
		}
	}()
	answered := map[string]bool{}
	progress := 0
	for len(answered) < n {
		m := p.next()
		if m["method"] == "notifications/progress" {
			progress++
			continue
		}
		if answered[idOf(m)] {
			t.Fatalf("answered twice: %v", m)
		}
		answered[idOf(m)] = true
	}
	if progress != 3*n {
		t.Errorf("progress notifications %d, want %d", progress, 3*n)
	}
}

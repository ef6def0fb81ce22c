package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// CommandTransport runs an MCP server as a child process and talks to it
// over its stdin and stdout (basic/transports/stdio.mdx). The process is
// started by the first request and stopped by Close: stdin is closed, then
// after ShutdownTimeout SIGTERM, then SIGKILL.
type CommandTransport struct {
	// Cmd is the command to run; its Stdin and Stdout must be unset.
	Cmd *exec.Cmd
	// Stderr receives the server's stderr as it is written. When nil, the
	// last 4 KiB are kept and quoted in the error of a server that exits.
	Stderr io.Writer
	// MaxMessageBytes bounds one line read from the server
	// (DefaultMaxMessageBytes when 0).
	MaxMessageBytes int
	// ShutdownTimeout is how long Close waits after each step (default 2s).
	// It is also Cmd.WaitDelay when that is unset: a process the server
	// left behind that still holds its stdout or stderr (a background
	// grandchild) holds Close and the pending requests no longer than
	// that once the server itself has exited.
	ShutdownTimeout time.Duration

	once    sync.Once
	conn    *streamConn
	stdin   io.WriteCloser
	tail    *tailBuffer
	exited  chan struct{}
	waitErr error
	peer    Peer
	err     error
}

// Command returns a transport that runs name with args.
func Command(name string, args ...string) *CommandTransport {
	return &CommandTransport{Cmd: exec.Command(name, args...)}
}

// BindPeer implements PeerBinder.
func (t *CommandTransport) BindPeer(p Peer) {
	t.peer = p
	if t.conn != nil {
		t.conn.bindPeer(p)
	}
}

func (t *CommandTransport) start() error {
	t.once.Do(func() {
		if t.Cmd == nil {
			t.err = errors.New("client: CommandTransport without a Cmd")
			return
		}
		stdin, err := t.Cmd.StdinPipe()
		if err != nil {
			t.err = err
			return
		}
		stdout, err := t.Cmd.StdoutPipe()
		if err != nil {
			t.err = err
			return
		}
		t.tail = &tailBuffer{max: 4096}
		if t.Stderr != nil {
			t.Cmd.Stderr = io.MultiWriter(t.Stderr, t.tail)
		} else {
			t.Cmd.Stderr = t.tail
		}
		if t.Cmd.WaitDelay == 0 {
			t.Cmd.WaitDelay = t.shutdownTimeout()
		}
		if err := t.Cmd.Start(); err != nil {
			t.err = fmt.Errorf("client: starting %s: %w", t.Cmd.Path, err)
			return
		}
		t.stdin = stdin
		t.exited = make(chan struct{})
		go func() {
			t.waitErr = t.Cmd.Wait()
			close(t.exited)
		}()
		t.conn = newStreamConn(stdout, stdin, t.MaxMessageBytes, t.exitCause)
		if t.peer != nil {
			t.conn.bindPeer(t.peer)
		}
	})
	return t.err
}

// exitCause describes why the server's output ended: its exit status and
// the end of its stderr.
func (t *CommandTransport) exitCause() error {
	var parts []string
	select {
	case <-t.exited:
		if t.waitErr != nil {
			parts = append(parts, "server "+t.waitErr.Error())
		} else {
			parts = append(parts, "server exited with status 0")
		}
	case <-time.After(200 * time.Millisecond):
	}
	if s := strings.TrimSpace(t.tail.String()); s != "" && t.Stderr == nil {
		parts = append(parts, "stderr: "+s)
	}
	if len(parts) == 0 {
		return nil
	}
	return errors.New(strings.Join(parts, "; "))
}

// Stderr returns the end of the server's stderr kept so far.
func (t *CommandTransport) StderrTail() string {
	if t.tail == nil {
		return ""
	}
	return t.tail.String()
}

// RoundTrip implements Transport.
func (t *CommandTransport) RoundTrip(ctx context.Context, req *Request) (json.RawMessage, error) {
	if err := t.start(); err != nil {
		return nil, err
	}
	return t.conn.roundTrip(ctx, req)
}

// Notify implements Transport.
func (t *CommandTransport) Notify(ctx context.Context, req *Request) error {
	if err := t.start(); err != nil {
		return err
	}
	return t.conn.notify(ctx, req)
}

// Close stops the server: it closes its stdin, and signals it if it does
// not exit in time.
func (t *CommandTransport) Close() error {
	if t.conn == nil {
		return t.err
	}
	d := t.shutdownTimeout()
	_ = t.stdin.Close()
	select {
	case <-t.exited:
		return nil
	case <-time.After(d):
	}
	_ = t.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-t.exited:
		return nil
	case <-time.After(d):
	}
	_ = t.Cmd.Process.Kill()
	<-t.exited
	return fmt.Errorf("client: the server did not exit within %v of SIGTERM and was killed", d)
}

func (t *CommandTransport) shutdownTimeout() time.Duration {
	if t.ShutdownTimeout <= 0 {
		return 2 * time.Second
	}
	return t.ShutdownTimeout
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	b.b = append(b.b, p...)
	if len(b.b) > b.max {
		b.b = append(b.b[:0], b.b[len(b.b)-b.max:]...)
	}
	b.mu.Unlock()
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.b)
}

// StreamTransport speaks newline-delimited JSON-RPC over any reader and
// writer (a pipe, a socket); CommandTransport uses it for a child process.
type StreamTransport struct {
	conn   *streamConn
	closer io.Closer
}

// NewStreamTransport reads the server's messages from r and writes the
// client's to w; Close closes w. maxMessageBytes 0 means
// DefaultMaxMessageBytes.
func NewStreamTransport(r io.Reader, w io.WriteCloser, maxMessageBytes int) *StreamTransport {
	return &StreamTransport{conn: newStreamConn(r, w, maxMessageBytes, nil), closer: w}
}

// BindPeer implements PeerBinder.
func (t *StreamTransport) BindPeer(p Peer) { t.conn.bindPeer(p) }

// RoundTrip implements Transport.
func (t *StreamTransport) RoundTrip(ctx context.Context, req *Request) (json.RawMessage, error) {
	return t.conn.roundTrip(ctx, req)
}

// Notify implements Transport.
func (t *StreamTransport) Notify(ctx context.Context, req *Request) error {
	return t.conn.notify(ctx, req)
}

// Close implements Transport.
func (t *StreamTransport) Close() error { return t.closer.Close() }

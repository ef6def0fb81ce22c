package driver

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// RunHTTP starts s with -http on a free 127.0.0.1 port, checks the reply to
// c, then runs opt.Concurrency keep-alive clients in a closed loop and measures.
func RunHTTP(s Server, c Call, opt LoadOptions) (LoadResult, error) {
	enc, err := newEncoder(s.Protocol, c)
	if err != nil {
		return LoadResult{}, err
	}
	addr, err := freeAddr()
	if err != nil {
		return LoadResult{}, err
	}
	args := append(append(append([]string{}, s.Args...), opt.ExtraArgs...), "-http", addr)
	proc, err := startProcess(s.Binary, args, nil, nil)
	if err != nil {
		return LoadResult{}, err
	}
	defer proc.stop(0)
	if err := waitListening(proc, addr, opt.timeout()); err != nil {
		return LoadResult{}, fmt.Errorf("%s http: %w", s.Name, proc.describe(err))
	}
	h := &httpTarget{
		pid:     proc.cmd.Process.Pid,
		url:     "http://" + addr + s.httpPath(),
		enc:     enc,
		proto:   s.Protocol,
		method:  c.method(),
		name:    c.headerName(),
		timeout: opt.timeout(),
		client:  newHTTPClient(opt.Concurrency, opt.timeout()),
	}
	defer h.client.CloseIdleConnections()
	res, err := h.run(c, opt)
	if err != nil {
		return LoadResult{}, fmt.Errorf("%s http: %w", s.Name, proc.describe(err))
	}
	return res, nil
}

func newHTTPClient(conns int, timeout time.Duration) *http.Client {
	conns = max(conns, 1) * 2
	return &http.Client{Timeout: timeout, Transport: &http.Transport{
		MaxIdleConns:        conns,
		MaxIdleConnsPerHost: conns,
		IdleConnTimeout:     time.Minute,
		DisableCompression:  true,
	}}
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func waitListening(p *process, addr string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		select {
		case <-p.done:
			return fmt.Errorf("server exited before listening on %s", addr)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("server not listening on %s after %v", addr, timeout)
}

// httpTarget sends tools/call requests to one server URL.
type httpTarget struct {
	pid     int // the server process
	url     string
	enc     encoder
	proto   Protocol
	method  string // the call's method and its Mcp-Name header value
	name    string
	timeout time.Duration
	client  *http.Client
}

// session is one client's state: its legacy session id, if any.
type session struct{ id string }

func (h *httpTarget) newSession() (*session, error) {
	s := &session{}
	if h.proto != Legacy {
		return s, nil
	}
	resp, body, err := h.post(s, initializeRequest(initID), "initialize")
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if _, failed, ok := parseResponse(body); !ok || failed {
		return nil, fmt.Errorf("initialize failed: %.300s", body)
	}
	s.id = resp.Header.Get("Mcp-Session-Id")
	if _, _, err := h.post(s, initializedNotification, "notifications/initialized"); err != nil {
		return nil, fmt.Errorf("notifications/initialized: %w", err)
	}
	return s, nil
}

// post sends one JSON-RPC message and returns the JSON-RPC reply (nil for
// 202 Accepted).
func (h *httpTarget) post(s *session, msg []byte, method string) (*http.Response, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, h.url, bytes.NewReader(msg))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", h.proto.version())
	if h.proto == Modern {
		req.Header.Set("Mcp-Method", method)
		if method == h.method && h.name != "" {
			req.Header.Set("Mcp-Name", h.name)
		}
	}
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode == http.StatusAccepted {
		return resp, nil, nil
	}
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("HTTP %d: %.300s", resp.StatusCode, body)
	}
	msg, err = responseFromHTTP(resp.Header.Get("Content-Type"), body)
	return resp, msg, err
}

// call sends one tools/call. The body is fresh each time: the transport may
// still hold it after Do returns.
func (h *httpTarget) call(s *session, id int64) ([]byte, error) {
	_, reply, err := h.post(s, h.enc.appendRequest(make([]byte, 0, h.enc.size()), id), h.method)
	return reply, err
}

func (h *httpTarget) run(c Call, opt LoadOptions) (LoadResult, error) {
	s, err := h.newSession()
	if err != nil {
		return LoadResult{}, err
	}
	send := func(id int64) ([]byte, error) { return h.call(s, id) }
	if c.MultiRound {
		if send, err = multiRound(h.proto, c, func(_ int64, req []byte) ([]byte, error) {
			_, reply, err := h.post(s, req, h.method)
			return reply, err
		}); err != nil {
			return LoadResult{}, err
		}
	}
	reply, err := send(verifyID)
	if err == nil {
		err = c.verify(reply, verifyID)
	}
	if err != nil {
		return LoadResult{}, fmt.Errorf("verify call: %w", err)
	}
	if opt.Sequential || c.MultiRound {
		return sequence(h.pid, opt, send)
	}
	n := max(opt.Concurrency, 1)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	base := time.Now()
	to := opt.Warmup + opt.Duration
	cpu := newCPUWindow(h.pid, base, opt.Warmup, to)
	per := make([][]sample, n)
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() {
			var err error
			if per[w], err = h.client1(ctx, s, w, base, to); err != nil {
				cancel(err)
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return LoadResult{}, err
	}
	var all []sample
	for _, p := range per {
		all = append(all, p...)
	}
	return summarize(all, opt.Warmup, to).withServer(cpu.wait(), peakRSS(h.pid)), nil
}

// client1 is one closed-loop client; ids are spread so clients never collide.
func (h *httpTarget) client1(ctx context.Context, s *session, w int, base time.Time, to time.Duration) ([]sample, error) {
	if h.proto == Legacy && w > 0 { // every legacy client gets its own session
		var err error
		if s, err = h.newSession(); err != nil {
			return nil, err
		}
	}
	var samples []sample
	id := int64(firstID) + int64(w)<<32
	for ctx.Err() == nil {
		start := time.Since(base)
		if start >= to {
			break
		}
		reply, err := h.call(s, id)
		if err != nil {
			return nil, err
		}
		end := time.Since(base)
		got, failed, ok := parseResponse(reply)
		switch {
		case !ok || got != id:
			return nil, fmt.Errorf("reply for id %s does not match request %d: %.300s", strconv.FormatInt(got, 10), id, reply)
		case failed:
			return nil, fmt.Errorf("error reply: %.300s", reply)
		}
		samples = append(samples, sample{end: end, lat: end - start})
		id++
	}
	return samples, nil
}

package driver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ListenOptions shape a listen row.
type ListenOptions struct {
	// Streams is the number of subscriptions/listen streams held open.
	Streams int
	// Idle is how long the server only holds the streams while its CPU is
	// measured.
	Idle time.Duration
	// Triggers is how many list changes are fanned out (one at a time).
	Triggers int
	Timeout  time.Duration
	// ExtraArgs are appended to the server's arguments (e.g. -cpuprofile F).
	ExtraArgs []string
}

// ListenResult is one listen run.
type ListenResult struct {
	// FanoutP50 and FanoutP99 are over every stream and trigger: the time
	// from sending the trigger call to the stream's list_changed.
	FanoutP50, FanoutP99 time.Duration
	// FanoutCPU is the server's CPU time per trigger, from sending it until
	// its list_changed reached every stream: the work of one fan-out (the
	// trigger call's own handling included), which the machine's load
	// changes far less than the latencies.
	FanoutCPU time.Duration
	// IdleCPU is the server's CPU time per second of the idle window (a rate, not a span).
	IdleCPU time.Duration
	// KeepAlives is the SSE comments (keep-alives) the streams received
	// per second of the idle window: the work the server did in it.
	KeepAlives float64
	PeakRSSKiB int
}

// RunListen starts s with -http, opens opt.Streams subscriptions/listen
// streams (toolsListChanged) and waits for every acknowledgement, measures
// the server's CPU while idle, then calls trigger (a tool that adds a tool)
// opt.Triggers times and times each list_changed reaching every stream.
func RunListen(s Server, trigger Call, opt ListenOptions) (ListenResult, error) {
	if s.Protocol != Modern {
		return ListenResult{}, fmt.Errorf("listen: only 2026-07-28 servers")
	}
	timeout := opt.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	enc, err := newEncoder(s.Protocol, trigger)
	if err != nil {
		return ListenResult{}, err
	}
	addr, err := freeAddr()
	if err != nil {
		return ListenResult{}, err
	}
	proc, err := startProcess(s.Binary, append(append(append([]string{}, s.Args...), opt.ExtraArgs...), "-http", addr), nil, nil)
	if err != nil {
		return ListenResult{}, err
	}
	defer proc.stop(0)
	if err := waitListening(proc, addr, timeout); err != nil {
		return ListenResult{}, proc.describe(err)
	}
	url := "http://" + addr + s.httpPath()
	streamClient := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: opt.Streams, DisableCompression: true}}
	defer streamClient.CloseIdleConnections()
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	n := max(opt.Streams, 1)
	acked := make(chan struct{}, n)
	got := make(chan time.Time, n)
	var comments atomic.Int64
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel(nil)
	for i := range n {
		wg.Go(func() {
			if err := listenStream(ctx, streamClient, url, int64(firstID+i), acked, got, &comments); err != nil && ctx.Err() == nil {
				cancel(fmt.Errorf("stream %d: %w", i, err))
			}
		})
	}
	deadline := time.After(timeout)
	for range n {
		select {
		case <-acked:
		case <-ctx.Done():
			return ListenResult{}, proc.describe(context.Cause(ctx))
		case <-deadline:
			return ListenResult{}, proc.describe(fmt.Errorf("listen streams not all acknowledged within %v", timeout))
		}
	}
	pid := proc.cmd.Process.Pid
	cpu0, kas0, start := threadsCPU(pid), comments.Load(), time.Now()
	time.Sleep(opt.Idle)
	cpu1, kas1, idle := threadsCPU(pid), comments.Load(), time.Since(start)
	res := ListenResult{KeepAlives: float64(kas1-kas0) / idle.Seconds()}
	if cpu0 >= 0 && cpu1 >= 0 {
		res.IdleCPU = time.Duration(float64(cpu1-cpu0) / idle.Seconds())
	}
	h := &httpTarget{pid: pid, url: url, enc: enc, proto: s.Protocol, method: trigger.method(), name: trigger.headerName(),
		timeout: timeout, client: newHTTPClient(1, timeout)}
	defer h.client.CloseIdleConnections()
	var lats []time.Duration
	var fanoutCPU time.Duration
	triggers := max(opt.Triggers, 1)
	for t := range triggers {
		cpu0 := threadsCPU(pid)
		sent := time.Now()
		id := int64(1<<40 + t)
		reply, err := h.call(&session{}, id)
		if err == nil {
			err = trigger.verify(reply, id)
		}
		if err != nil {
			return ListenResult{}, proc.describe(fmt.Errorf("trigger: %w", err))
		}
		for range n {
			select {
			case at := <-got:
				lats = append(lats, at.Sub(sent))
			case <-ctx.Done():
				return ListenResult{}, proc.describe(context.Cause(ctx))
			case <-time.After(timeout):
				return ListenResult{}, proc.describe(fmt.Errorf("list_changed did not reach every stream within %v", timeout))
			}
		}
		fanoutCPU += threadsCPU(pid) - cpu0
	}
	res.FanoutCPU = fanoutCPU / time.Duration(triggers)
	slices.Sort(lats)
	res.FanoutP50, res.FanoutP99 = percentile(lats, 50), percentile(lats, 99)
	res.PeakRSSKiB = peakRSS(pid)
	return res, nil
}

// listenStream holds one subscriptions/listen stream: it signals acked on
// the acknowledgement, sends the arrival time of every
// notifications/tools/list_changed to got and counts SSE comment lines
// (keep-alives) in comments, until ctx ends.
func listenStream(ctx context.Context, c *http.Client, url string, id int64, acked chan<- struct{}, got chan<- time.Time, comments *atomic.Int64) error {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"%s","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":%s}}}`,
		id, ModernVersion, clientInfo)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", ModernVersion)
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		return fmt.Errorf("HTTP %d %s: %.300s", resp.StatusCode, resp.Header.Get("Content-Type"), b.Bytes())
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 4<<10), 1<<20)
	ack := false
	for sc.Scan() {
		if bytes.HasPrefix(sc.Bytes(), []byte(":")) {
			comments.Add(1)
			continue
		}
		data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:"))
		if !ok {
			continue // event:, id:, blank lines
		}
		m, ok := topMembers(bytes.TrimSpace(data))
		if !ok {
			return fmt.Errorf("not JSON: %.300s", data)
		}
		switch string(m.method) {
		case `"notifications/subscriptions/acknowledged"`:
			if !ack {
				ack = true
				acked <- struct{}{}
			}
		case `"notifications/tools/list_changed"`:
			got <- time.Now()
		case "":
			if m.err != nil {
				return fmt.Errorf("listen answered with an error: %.300s", data)
			}
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return fmt.Errorf("stream ended")
}

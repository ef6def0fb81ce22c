// Package hostile is the hostile-client soak of cmd/load: it drives one
// server binary (servers/hostile: server.Run with the default Limits) the way
// a hostile or merely broken client would, and measures what the issue-12
// bounds promise: peak RSS with a stdio client that never reads, file
// descriptors under stalled HTTP bodies, goroutines before and after abrupt
// disconnects, and responses lost on SIGTERM (stdio and HTTP).
package hostile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Sizes scales the soak.
type Sizes struct {
	NeverReadRequests int // requests a never-reading stdio client writes
	StalledBodies     int // HTTP clients that stall in their body
	Disconnects       int // abrupt HTTP disconnects
	InFlightAtSIGTERM int // slow requests in flight when SIGTERM comes
}

// Full is the issue-12 soak; Short is CI's.
var (
	Full  = Sizes{NeverReadRequests: 300000, StalledBodies: 300, Disconnects: 10000, InFlightAtSIGTERM: 200}
	Short = Sizes{NeverReadRequests: 300000, StalledBodies: 300, Disconnects: 2000, InFlightAtSIGTERM: 100}
)

// Figures are the soak's measurements.
type Figures struct {
	NeverReadTaken   int64  // requests the server took from the never-reading client
	NeverReadPeakKiB int    // its peak RSS (VmHWM)
	FDsBefore        int    // server fds before the stalled bodies
	FDsStalled       int    // with the stalled bodies open
	FDsAfter         int    // after ReadTimeout
	StalledCut       int    // stalled clients the server closed
	ServedWhileHeld  int64  // normal calls served while the bodies stalled
	GoroutinesBefore int    // before the abrupt disconnects
	GoroutinesAfter  int    // after them
	StacksAfter      string // then the server's goroutines by first frame (the stacks probe)
	ServedDuring     int64  // normal calls served during the disconnects
	FailedDuring     int64  // normal calls that failed during them
	LostHTTP         int    // HTTP requests not answered at all on SIGTERM
	LostStdio        int    // stdio requests not answered at all on SIGTERM
	ResultsHTTP      int    // HTTP requests answered with their result
	ResultsStdio     int    // stdio requests answered with their result
	RefusedStdio     int    // stdio requests not yet read, answered with the shutdown error
	ListenHTTP       bool   // the HTTP listen stream ended with its result
	ListenStdio      bool   // the stdio listen stream ended with its result
}

// ReadTimeout is the server's Limits.ReadTimeout in the soak (short, so
// that stalled bodies are cut within the run).
const ReadTimeout = 2 * time.Second

const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"hostile","version":"0"}}`

func call(id int64, tool, args string) string {
	return `{"jsonrpc":"2.0","id":` + strconv.FormatInt(id, 10) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `,` + meta + `}}`
}

func listen(id string) string {
	return `{"jsonrpc":"2.0","id":"` + id + `","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + meta + `}}`
}

// Run runs every phase against bin and returns the figures; err reports a
// phase that could not run, not a bound that failed (see Check).
func Run(bin string, sz Sizes, logf func(string, ...any)) (Figures, error) {
	var f Figures
	var err error
	if f.NeverReadTaken, f.NeverReadPeakKiB, err = neverReadingStdio(bin, sz.NeverReadRequests); err != nil {
		return f, fmt.Errorf("never-reading stdio client: %w", err)
	}
	logf("never-reading stdio client: wrote %d requests, the server took %d and stopped reading; peak RSS %d KiB",
		sz.NeverReadRequests, f.NeverReadTaken, f.NeverReadPeakKiB)
	if err := httpPhases(bin, sz, &f, logf); err != nil {
		return f, err
	}
	if f.ResultsStdio, f.RefusedStdio, f.ListenStdio, err = sigtermStdio(bin, sz.InFlightAtSIGTERM); err != nil {
		return f, fmt.Errorf("SIGTERM on stdio: %w", err)
	}
	f.LostStdio = sz.InFlightAtSIGTERM - f.ResultsStdio - f.RefusedStdio
	logf("SIGTERM on stdio with %d slow requests sent (at most 64 in flight per connection): %d answered with their result, %d not yet read answered with the shutdown error, %d lost; listen stream ended with its result: %v",
		sz.InFlightAtSIGTERM, f.ResultsStdio, f.RefusedStdio, f.LostStdio, f.ListenStdio)
	return f, nil
}

// goroutinesLeft reports whether more goroutines outlived the disconnects
// than the soak allows.
func (f Figures) goroutinesLeft() bool { return f.GoroutinesAfter > f.GoroutinesBefore+10 }

// Check returns the bounds the figures break, if any.
func (f Figures) Check(sz Sizes) error {
	var bad []string
	if f.NeverReadTaken > 5000 {
		bad = append(bad, fmt.Sprintf("the server took %d requests from a client that never reads", f.NeverReadTaken))
	}
	if f.NeverReadPeakKiB > 256<<10 {
		bad = append(bad, fmt.Sprintf("peak RSS %d KiB with a never-reading client", f.NeverReadPeakKiB))
	}
	if f.StalledCut != sz.StalledBodies || f.FDsAfter > f.FDsBefore+5 {
		bad = append(bad, fmt.Sprintf("stalled bodies: %d of %d cut, fds %d before, %d after", f.StalledCut, sz.StalledBodies, f.FDsBefore, f.FDsAfter))
	}
	if f.ServedWhileHeld == 0 || f.FailedDuring > 0 {
		bad = append(bad, fmt.Sprintf("normal clients: %d served while bodies stalled, %d failed during the disconnects", f.ServedWhileHeld, f.FailedDuring))
	}
	if f.goroutinesLeft() {
		bad = append(bad, fmt.Sprintf("goroutines %d before the disconnects, %d after; by first frame:\n%s", f.GoroutinesBefore, f.GoroutinesAfter, f.StacksAfter))
	}
	if f.LostHTTP+f.LostStdio > 0 || !f.ListenHTTP || !f.ListenStdio {
		bad = append(bad, fmt.Sprintf("SIGTERM lost %d HTTP and %d stdio responses (listen results: HTTP %v, stdio %v)", f.LostHTTP, f.LostStdio, f.ListenHTTP, f.ListenStdio))
	}
	if len(bad) > 0 {
		return fmt.Errorf("%s", strings.Join(bad, "; "))
	}
	return nil
}

// proc is a started server.
type proc struct {
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

func start(bin string, args []string, stdin io.Reader, stdout io.Writer) (*proc, error) {
	p := &proc{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = stdin, stdout, os.Stderr
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	return p, nil
}

func (p *proc) kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}

func (p *proc) fds() int {
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", p.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	return len(ents)
}

func (p *proc) peakRSSKiB() int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return n
		}
	}
	return -1
}

// neverReadingStdio writes n weather calls and never reads stdout; it
// returns how many requests the server took before it stopped reading, and
// its peak RSS then.
func neverReadingStdio(bin string, n int) (int64, int, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return 0, 0, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return 0, 0, err
	}
	p, err := start(bin, nil, inR, outW)
	inR.Close()
	outW.Close()
	if err != nil {
		return 0, 0, err
	}
	defer outR.Close() // never read
	defer p.kill()
	var written atomic.Int64
	go func() {
		for id := int64(1); id <= int64(n); id++ {
			if _, err := io.WriteString(inW, call(id, "weather_current", `{"location":"Paris"}`)+"\n"); err != nil {
				return
			}
			written.Add(1)
		}
	}()
	defer inW.Close()
	last, stable := int64(-1), 0
	for deadline := time.Now().Add(60 * time.Second); stable < 10 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if w := written.Load(); w == last {
			stable++
		} else {
			last, stable = w, 0
		}
	}
	select {
	case <-p.done:
		return last, 0, fmt.Errorf("the server exited: %v", p.err)
	default:
	}
	if last == int64(n) {
		return last, p.peakRSSKiB(), fmt.Errorf("the server read all %d requests without its output being read", n)
	}
	return last, p.peakRSSKiB(), nil
}

// httpServer starts bin with -http on a free port.
func httpServer(bin string) (*proc, string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	addr := l.Addr().String()
	l.Close()
	p, err := start(bin, []string{"-http", addr, "-read-timeout", ReadTimeout.String()}, nil, nil)
	if err != nil {
		return nil, "", err
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond); err == nil {
			c.Close()
			return p, addr, nil
		}
		if time.Now().After(deadline) {
			p.kill()
			return nil, "", fmt.Errorf("server not listening on %s", addr)
		}
	}
}

func rawHead(body, tool string) string {
	return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n" +
		"MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: " + tool + "\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
}

// client is a normal HTTP client of the soak.
type client struct {
	url string
	hc  *http.Client
}

func (c *client) do(ctx context.Context, body, method, name string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name != "" {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// weather makes one normal call and reports whether it was answered right.
func (c *client) weather(id int64) bool {
	code, b, err := c.do(context.Background(), call(id, "weather_current", `{"location":"Paris"}`), "tools/call", "weather_current")
	return err == nil && code == 200 && bytes.Contains(b, []byte(`"temperature":21.5`))
}

// goroutines asks the server for its goroutine count.
func (c *client) goroutines() (int, error) {
	text, err := c.probe("goroutines")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(text)
}

// stacks asks the server for its goroutines counted by first frame.
func (c *client) stacks() (string, error) { return c.probe("stacks") }

// probe calls the server's probe tool name and returns its text.
func (c *client) probe(name string) (string, error) {
	code, b, err := c.do(context.Background(), call(1, name, `{}`), "tools/call", name)
	if err != nil || code != 200 {
		return "", fmt.Errorf("%s probe: %d %s %v", name, code, b, err)
	}
	var m struct {
		Result struct {
			Content []struct{ Text string } `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &m); err != nil || len(m.Result.Content) == 0 {
		return "", fmt.Errorf("%s probe: %s", name, b)
	}
	return m.Result.Content[0].Text, nil
}

// normalLoad runs one normal client until stop, counting its calls.
func normalLoad(c *client, stop <-chan struct{}, ok, failed *atomic.Int64) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Go(func() {
		for id := int64(1000); ; id++ {
			select {
			case <-stop:
				return
			default:
			}
			if c.weather(id) {
				ok.Add(1)
			} else {
				failed.Add(1)
			}
			time.Sleep(2 * time.Millisecond)
		}
	})
	return &wg
}

func httpPhases(bin string, sz Sizes, f *Figures, logf func(string, ...any)) error {
	p, addr, err := httpServer(bin)
	if err != nil {
		return err
	}
	defer p.kill()
	c := &client{url: "http://" + addr + "/mcp", hc: &http.Client{Timeout: 10 * time.Second}}
	if !c.weather(1) {
		return fmt.Errorf("the server does not answer")
	}
	c.hc.CloseIdleConnections()

	// Stalled bodies.
	f.FDsBefore = p.fds()
	body := call(2, "weather_current", `{"location":"Paris"}`)
	var conns []net.Conn
	for range sz.StalledBodies {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			return fmt.Errorf("stalled body: %w", err)
		}
		conns = append(conns, conn)
		if _, err := io.WriteString(conn, rawHead(body, "weather_current")+body[:20]); err != nil {
			return err
		}
	}
	for deadline := time.Now().Add(ReadTimeout / 2); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		f.FDsStalled = max(f.FDsStalled, p.fds()) // until every stalled client is accepted
		if f.FDsStalled >= f.FDsBefore+sz.StalledBodies {
			break
		}
	}
	var okHeld, failedHeld atomic.Int64
	stop := make(chan struct{})
	wg := normalLoad(c, stop, &okHeld, &failedHeld)
	var cut atomic.Int64
	var cwg sync.WaitGroup
	for _, conn := range conns {
		cwg.Go(func() {
			_ = conn.SetReadDeadline(time.Now().Add(ReadTimeout + 5*time.Second))
			_, err := io.Copy(io.Discard, conn)
			if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
				cut.Add(1)
			}
			conn.Close()
		})
	}
	cwg.Wait()
	close(stop)
	wg.Wait()
	f.StalledCut, f.ServedWhileHeld = int(cut.Load()), okHeld.Load()
	c.hc.CloseIdleConnections()
	time.Sleep(200 * time.Millisecond)
	f.FDsAfter = p.fds()
	logf("%d stalled HTTP bodies: server fds %d before, %d while stalled, %d after; %d cut by ReadTimeout %v; %d normal calls served meanwhile (%d failed)",
		sz.StalledBodies, f.FDsBefore, f.FDsStalled, f.FDsAfter, f.StalledCut, ReadTimeout, f.ServedWhileHeld, failedHeld.Load())

	// Abrupt disconnects.
	if f.GoroutinesBefore, err = c.goroutines(); err != nil {
		return err
	}
	var okDuring, failedDuring atomic.Int64
	stop = make(chan struct{})
	wg = normalLoad(c, stop, &okDuring, &failedDuring)
	jobs := make(chan int)
	var dwg sync.WaitGroup
	for range 32 {
		dwg.Go(func() {
			for i := range jobs {
				disconnect(addr, i)
			}
		})
	}
	for i := range sz.Disconnects {
		jobs <- i
	}
	close(jobs)
	dwg.Wait()
	close(stop)
	wg.Wait()
	f.ServedDuring, f.FailedDuring = okDuring.Load(), failedDuring.Load()
	c.hc.CloseIdleConnections()
	// Probes further apart than a parked handler worker waits for a job
	// (server: handlerWorkerIdle, 1 s): probing every 100 ms kept about ten
	// of them alive. Up to 30 s for connections still being cleaned up; a
	// leak stays.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(1100 * time.Millisecond) {
		if f.GoroutinesAfter, err = c.goroutines(); err != nil {
			return err
		}
		c.hc.CloseIdleConnections()
		if f.GoroutinesAfter <= f.GoroutinesBefore+2 || time.Now().After(deadline) {
			break
		}
	}
	if f.goroutinesLeft() {
		if f.StacksAfter, err = c.stacks(); err != nil {
			return err
		}
	}
	logf("%d abrupt HTTP disconnects (connect-and-close, half headers, half body, gone before the answer, listen stream dropped): server goroutines %d before, %d after; %d normal calls served meanwhile, %d failed",
		sz.Disconnects, f.GoroutinesBefore, f.GoroutinesAfter, f.ServedDuring, f.FailedDuring)
	p.kill()

	// SIGTERM with requests in flight.
	if f.ResultsHTTP, f.ListenHTTP, err = sigtermHTTP(bin, sz.InFlightAtSIGTERM); err != nil {
		return fmt.Errorf("SIGTERM on HTTP: %w", err)
	}
	f.LostHTTP = sz.InFlightAtSIGTERM - f.ResultsHTTP
	logf("SIGTERM on HTTP with %d requests in flight: %d answered with their result, %d lost; listen stream ended with its result: %v",
		sz.InFlightAtSIGTERM, f.ResultsHTTP, f.LostHTTP, f.ListenHTTP)
	return nil
}

// disconnect misbehaves once, in one of five ways chosen by i.
func disconnect(addr string, i int) {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return
	}
	defer conn.Close()
	slow := call(int64(i), "sleep", `{"ms":100}`)
	switch i % 5 {
	case 0: // connect and close
	case 1: // half the headers
		io.WriteString(conn, rawHead(slow, "sleep")[:40])
	case 2: // headers and half the body
		io.WriteString(conn, rawHead(slow, "sleep")+slow[:len(slow)/2])
	case 3: // the whole request, gone before the answer
		io.WriteString(conn, rawHead(slow, "sleep")+slow)
		time.Sleep(10 * time.Millisecond)
	case 4: // a listen stream, dropped after its acknowledgement
		body := listen(strconv.Itoa(i))
		head := strings.Replace(strings.Replace(rawHead(body, ""), "Mcp-Method: tools/call", "Mcp-Method: subscriptions/listen", 1), "Mcp-Name: \r\n", "", 1)
		io.WriteString(conn, head+body)
		_ = conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		br := bufio.NewReader(conn)
		for {
			line, err := br.ReadString('\n')
			if err != nil || strings.Contains(line, "acknowledged") {
				break
			}
		}
	}
	if tc, ok := conn.(*net.TCPConn); ok && i%2 == 0 {
		_ = tc.SetLinger(0) // a reset rather than a close
	}
}

// sigtermHTTP sends SIGTERM to an HTTP server with n slow requests and a
// listen stream open; it returns how many requests got their result.
func sigtermHTTP(bin string, n int) (results int, listenOK bool, err error) {
	p, addr, err := httpServer(bin)
	if err != nil {
		return 0, false, err
	}
	defer p.kill()
	url := "http://" + addr + "/mcp"
	lc := &client{url: url, hc: &http.Client{}}
	listenDone := make(chan bool, 1)
	ackd := make(chan struct{})
	go func() {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(listen("L")))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "subscriptions/listen")
		resp, err := lc.hc.Do(req)
		if err != nil {
			close(ackd)
			listenDone <- false
			return
		}
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		ok, acked := false, false
		for sc.Scan() {
			line := sc.Text()
			if !acked && strings.Contains(line, "acknowledged") {
				acked = true
				close(ackd)
			}
			if strings.Contains(line, `"id":"L"`) && strings.Contains(line, `"result"`) {
				ok = true
			}
		}
		if !acked {
			close(ackd)
		}
		listenDone <- ok
	}()
	<-ackd
	var answered atomic.Int64
	var wg sync.WaitGroup
	started := make(chan struct{}, n)
	for i := range n {
		wg.Go(func() {
			c := &client{url: url, hc: &http.Client{Transport: &http.Transport{}}}
			started <- struct{}{}
			code, b, err := c.do(context.Background(), call(int64(10+i), "sleep", `{"ms":500}`), "tools/call", "sleep")
			if err == nil && code == 200 && bytes.Contains(b, []byte(`"slept"`)) {
				answered.Add(1)
			}
		})
	}
	for range n {
		<-started
	}
	time.Sleep(200 * time.Millisecond) // every request is at the server
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return 0, false, err
	}
	wg.Wait()
	select {
	case listenOK = <-listenDone:
	case <-time.After(10 * time.Second):
	}
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		return 0, listenOK, fmt.Errorf("the server did not exit after SIGTERM")
	}
	return int(answered.Load()), listenOK, nil
}

// sigtermStdio sends SIGTERM to a stdio server with n slow requests and a
// listen stream in flight; it returns how many requests got their result
// and how many the shutdown error.
func sigtermStdio(bin string, n int) (results, refused int, listenOK bool, err error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return 0, 0, false, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return 0, 0, false, err
	}
	p, err := start(bin, nil, inR, outW)
	inR.Close()
	outW.Close()
	if err != nil {
		return 0, 0, false, err
	}
	defer p.kill()
	defer inW.Close()
	lines := make(chan string, n+16)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	io.WriteString(inW, listen("L")+"\n")
	if line := <-lines; !strings.Contains(line, "acknowledged") {
		return 0, 0, false, fmt.Errorf("listen: %s", line)
	}
	for i := range n {
		io.WriteString(inW, call(int64(10+i), "sleep", `{"ms":500}`)+"\n")
	}
	time.Sleep(200 * time.Millisecond)
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return 0, 0, false, err
	}
	for line := range lines {
		switch {
		case strings.Contains(line, `"id":"L"`) && strings.Contains(line, `"result"`):
			listenOK = true
		case strings.Contains(line, `"slept"`):
			results++
		case strings.Contains(line, `"reason":"shutdown"`):
			refused++
		}
	}
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		return results, refused, listenOK, fmt.Errorf("the server did not exit after SIGTERM")
	}
	return results, refused, listenOK, nil
}

package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"strings"
)

// Run serves stdio when httpAddr is empty, else Streamable HTTP at /mcp on
// httpAddr (with Options.HTTP: allowed hosts and origins, body size) and
// the /healthz and /readyz probes, until ctx is done; then it drains
// (Shutdown) for at most Options.Limits.DrainGrace: it stops accepting
// first (HTTP: the listener closes and requests on open connections get 503
// with Retry-After), lets in-flight requests finish and writes their
// responses, ends listen streams with their result, and answers whatever it
// must cancel after the grace. On stdio it returns once the client has read
// the answers (at the end of the grace at the latest, or sooner for a
// client that reads nothing: see ServeStdio), and also when standard input
// ends. The HTTP server applies Options.Limits (connections, timeouts,
// header size).
func (s *Server) Run(ctx context.Context, httpAddr string) error {
	s.warnUnkeyed(httpAddr != "")
	if httpAddr == "" {
		return s.runStdio(ctx)
	}
	ln, err := net.Listen("tcp", listenAddr(httpAddr))
	if err != nil {
		return err
	}
	ln = s.limitListener(ln)
	srv := s.newHTTPServer(s.runMux())
	s.logger.Info("serving Streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp")
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	s.drainHTTP(srv)
	if err := <-serveErr; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// listenAddr binds to loopback unless the address names a host: ":8931" and
// "8931" listen on 127.0.0.1 (the transport page's advice for local
// servers); "0.0.0.0:8931" must be written out to listen on every interface.
func listenAddr(addr string) string {
	if !strings.Contains(addr, ":") {
		addr = ":" + addr
	}
	if host, port, err := net.SplitHostPort(addr); err == nil && host == "" {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
}

// runStdio serves os.Stdin/os.Stdout; when ctx is done it drains:
// in-flight requests are answered, listen streams get their result, and
// it returns once the client has read the answers (drainStdio).
func (s *Server) runStdio(ctx context.Context) error {
	s.announceTerminal(os.Stdin, os.Stderr) // terminal.go
	// Cancelled when Run returns: a drain that cut off a slow client
	// leaves nothing running for it (the process exits, usually).
	sctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(sctx, os.Stdin, os.Stdout) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	s.drainStdio(done)
	return nil
}

package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// shutdownGrace bounds how long Run waits for streams and responses.
const shutdownGrace = 5 * time.Second

// Run serves stdio when httpAddr is empty, else Streamable HTTP at /mcp on
// httpAddr (with Options.HTTP: allowed hosts and origins, limits) and the
// /healthz and /readyz probes, until ctx is done; then it shuts down,
// closing listen streams.
// On stdio it also returns when standard input ends.
func (s *Server) Run(ctx context.Context, httpAddr string) error {
	s.warnUnkeyed(httpAddr != "")
	if httpAddr == "" {
		return s.runStdio(ctx)
	}
	ln, err := net.Listen("tcp", listenAddr(httpAddr))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: s.runMux(), ReadHeaderTimeout: 10 * time.Second}
	s.logger.Info("serving Streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp")
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	s.Shutdown(sctx)
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
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

// runStdio serves os.Stdin/os.Stdout; when ctx is done, listen streams get
// their result before the connection closes.
func (s *Server) runStdio(ctx context.Context) error {
	sctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(sctx, os.Stdin, os.Stdout) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	gctx, gcancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer gcancel()
	s.Shutdown(gctx) // listen streams end with their result, still written
	cancel()
	select {
	case <-done:
	case <-gctx.Done():
	}
	return nil
}

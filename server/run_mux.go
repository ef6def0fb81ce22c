package server

import (
	"context"
	"net/http"
)

// Paths Run serves besides /mcp, for load balancers and orchestrators.
const (
	// HealthPath answers 200 while the process serves HTTP (liveness).
	HealthPath = "/healthz"
	// ReadyPath answers 200 while the server takes new work and, with a
	// cluster, reaches it; 503 once Shutdown has begun or the cluster is
	// unreachable, so a balancer stops sending requests before the process
	// stops (readiness).
	ReadyPath = "/readyz"
)

// runMux is the handler Run serves: /mcp with Options.HTTP, and the health
// and readiness endpoints (GET or HEAD, no Host/Origin check: they carry no
// data and a balancer's probe names the replica by address).
func (s *Server) runMux() *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.HTTPHandler(s.opts.HTTP))
	if a := s.opts.HTTP.Auth; a != nil {
		a.Mount(mux) // Protected Resource Metadata (auth_mount.go)
	}
	mux.HandleFunc("GET "+HealthPath, func(w http.ResponseWriter, _ *http.Request) {
		writeProbe(w, http.StatusOK, "ok")
	})
	mux.HandleFunc("GET "+ReadyPath, func(w http.ResponseWriter, r *http.Request) {
		if err := s.Ready(r.Context()); err != nil {
			writeProbe(w, http.StatusServiceUnavailable, err.Error())
			return
		}
		writeProbe(w, http.StatusOK, "ready")
	})
	return mux
}

// errShuttingDown is the readiness answer once Shutdown has begun.
var errShuttingDown = errString("shutting down")

type errString string

func (e errString) Error() string { return string(e) }

// Ready reports whether the server takes new work: nil until Shutdown
// begins and while its cluster (Options.Cluster), if any, answers.
func (s *Server) Ready(ctx context.Context) error {
	if s.isClosing() {
		return errShuttingDown
	}
	return s.clusterReady(ctx)
}

func writeProbe(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body + "\n"))
}

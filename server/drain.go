package server

import (
	"context"
	"net/http"
	"time"
)

// Shutdown drains the server in the order that loses no answer:
//
//  1. it stops accepting: requests that arrive from now on are refused
//     with -32603 and data {"reason":"shutdown"} (HTTP: 503 with
//     Retry-After, which a load balancer retries elsewhere);
//  2. it ends every open subscriptions/listen stream with its result,
//     once the stream has sent the changes that were waiting for it;
//  3. it lets the requests in flight and the running tasks finish, and
//     their responses be written, until ctx is done. A request admitted
//     before the drain is served to its end: its interceptors call next,
//     a legacy session's request runs its next round once the client
//     answered, a listen still in its interceptors is acknowledged and
//     then ended with its result (as in step 2), and a task it creates is
//     created and runs like the others (no task is created once no such
//     request is left);
//  4. then it cancels what is left: each cancelled request is answered
//     with -32603 {"reason":"shutdown"}, each unfinished task is marked
//     failed with that reason.
//
// It returns nil when everything finished within ctx, else ctx.Err() once
// the cancelled requests have been answered (it waits at most one more
// second for handlers that ignore their context; Limits.RequestTimeout
// answers those at once). Run calls it with Limits.DrainGrace; a program
// serving HTTPHandler itself calls it before http.Server.Shutdown, which
// closes the listener: a legacy session's client needs it open to POST
// its answer to a request waiting for one.
func (s *Server) Shutdown(ctx context.Context) error {
	s.closeOnce.Do(func() {
		close(s.closing)
		s.subs.wakeAll() // listen streams wait on their wake channel alone
	})
	idle := s.lim.beginDrain()
	done := make(chan struct{})
	go func() {
		<-idle
		s.streams.Wait()
		s.tasks.wait()
		s.leaveCluster(ctx)
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
	}
	s.lim.stop()
	s.tasks.close("the server shut down before the task finished")
	t := time.NewTimer(s.lim.stopAfter)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		// The writes of a store that hangs (a task's final status, say)
		// are given up and the replica leaves its cluster now: no
		// heartbeat and no write of its goes on after Shutdown returns.
		if s.cl != nil {
			s.cl.abandonWrites()
			s.leaveCluster(ctx)
		}
	}
	return ctx.Err()
}

// drainGrace is how long Run lets in-flight work finish on shutdown.
func (s *Server) drainGrace() time.Duration { return s.lim.cfg.DrainGrace }

// drainHTTP drains Run's HTTP server. The listener stays open through the
// drain, so that what the drain still needs can arrive: a legacy session's
// client POSTs its answer to a request waiting for it (the request runs its
// next round), and a balancer's probe gets /readyz's 503. A new request is
// refused with 503, Retry-After and reason shutdown (Shutdown's step 1),
// and keep-alives are off, so each connection closes after its response
// (the idle ones at once) and a client reconnects, to another replica
// behind a balancer. Once Shutdown has returned (everything finished, or
// the rest cancelled and answered at the end of the grace), srv.Shutdown
// closes the listener and waits for the responses still being written.
func (s *Server) drainHTTP(srv *http.Server) {
	srv.SetKeepAlivesEnabled(false)
	gctx, gcancel := context.WithTimeout(context.Background(), s.drainGrace())
	defer gcancel()
	_ = s.Shutdown(gctx)
	sctx, cancel := context.WithTimeout(context.Background(), s.lim.stopAfter+time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
}

// drainStdio drains the server while ServeStdio (done) still writes: it
// returns once ServeStdio has returned, having answered what was in flight
// and written the answers however slowly the client reads them (it gives
// up a client that reads nothing, see ServeStdio), and at the end of the
// grace at the latest, cutting off a client still reading (Run returns and
// the process exits). Requests cancelled at the end of the grace get
// stopAfter and one more second, after Shutdown returns, for their answers.
func (s *Server) drainStdio(done <-chan error) {
	end := time.Now().Add(s.drainGrace())
	gctx, gcancel := context.WithDeadline(context.Background(), end)
	defer gcancel()
	_ = s.Shutdown(gctx)
	t := time.NewTimer(max(time.Until(end), s.lim.stopAfter+time.Second))
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
}

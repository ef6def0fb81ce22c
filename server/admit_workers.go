package server

import (
	"sync/atomic"
	"time"
)

// handlerWorkers runs the handlers that serveLimited starts on a goroutine
// of their own (every HTTP request, stdio requests under a RequestTimeout).
// A new goroutine per request grew its stack again on every call
// (runtime.copystack was 10 % of the server's CPU at 16 HTTP clients); a
// worker that finished a handler instead waits a while for the next one,
// keeping its grown stack. At most maxIdleHandlerWorkers wait, each for
// handlerWorkerIdle, so an idle process goes back to its own goroutines.
var handlerWorkers = workerPool{jobs: make(chan func()), idleFor: handlerWorkerIdle}

const (
	maxIdleHandlerWorkers = 64
	handlerWorkerIdle     = time.Second
)

// workerPool hands jobs to parked goroutines, starting one when none is
// parked.
type workerPool struct {
	jobs    chan func()   // unbuffered: a send succeeds only to a parked worker
	idleFor time.Duration // how long a parked worker waits for a job
	idle    atomic.Int32
	started atomic.Int64 // workers started, for tests
}

// run runs job on a parked worker, or on a new goroutine.
func (p *workerPool) run(job func()) {
	select {
	case p.jobs <- job:
	default:
		p.started.Add(1)
		go p.work(job)
	}
}

// work runs job, then the jobs handed to it while it is parked, until it
// has waited idleFor for one or enough workers are parked.
func (p *workerPool) work(job func()) {
	var idle *time.Timer
	for {
		job()
		job = nil
		if p.idle.Add(1) > maxIdleHandlerWorkers {
			p.idle.Add(-1)
			return
		}
		if idle == nil {
			idle = time.NewTimer(p.idleFor)
		} else {
			idle.Reset(p.idleFor)
		}
		select {
		case job = <-p.jobs:
			p.idle.Add(-1)
		case <-idle.C:
			p.idle.Add(-1)
			return
		}
	}
}

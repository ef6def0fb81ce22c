package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// clusterState is a server's membership of its cluster (Options.Cluster):
// its replica id, the queue of changes to publish and the goroutines that
// publish, subscribe, renew the heartbeat and keep its tasks' records
// until leave.
type clusterState struct {
	c        Cluster
	replica  string
	onChange func(*Server, Change)
	outbox   chan []byte
	dropped  atomic.Int64 // changes broadcast dropped since the last one sent
	stop     context.CancelFunc
	stopKeep context.CancelFunc // ends keepTasks alone
	sent     chan struct{}      // closed when publishLoop has sent the outbox
	beaten   chan struct{}      // closed when heartbeat has returned
	kept     chan struct{}      // closed when keepTasks has returned
	leave    sync.Once
	// writes bounds the task records' writes (mirrorTask, the last ones
	// of leaveCluster); abandonWrites ends them when Shutdown gives up
	// waiting, so that a store that hangs cannot keep the replica in its
	// cluster after Shutdown returned.
	writes        context.Context
	abandonWrites context.CancelFunc
}

// clusterMessage is the wire form of a Change between replicas.
type clusterMessage struct {
	Replica string     `json:"r"`
	Kind    ChangeKind `json:"k"`
	URI     string     `json:"u,omitempty"`
	TaskID  string     `json:"t,omitempty"`
}

// joinCluster subscribes to the other replicas' changes and starts the
// heartbeat; both must succeed once before New returns.
func (s *Server) joinCluster(c Cluster, onChange func(*Server, Change)) error {
	var raw [8]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return fmt.Errorf("server: cluster: replica id: %w", err)
	}
	ctx, stop := context.WithCancel(context.Background())
	keepCtx, stopKeep := context.WithCancel(ctx)
	writes, abandonWrites := context.WithCancel(context.Background())
	cl := &clusterState{c: c, replica: hex.EncodeToString(raw[:]), onChange: onChange,
		outbox: make(chan []byte, outboxSize), stop: stop, stopKeep: stopKeep,
		sent: make(chan struct{}), beaten: make(chan struct{}), kept: make(chan struct{}),
		writes: writes, abandonWrites: abandonWrites}
	s.cl = cl
	jctx, cancel := context.WithTimeout(ctx, clusterTimeout)
	defer cancel()
	if err := c.Heartbeat(jctx, cl.replica, heartbeatTTL); err != nil {
		abandonWrites()
		stopKeep()
		stop()
		return fmt.Errorf("server: cluster: heartbeat: %w", err)
	}
	if err := c.Subscribe(ctx, s.deliverRemote); err != nil {
		abandonWrites()
		stopKeep()
		stop()
		return fmt.Errorf("server: cluster: subscribe: %w", err)
	}
	go s.heartbeat(ctx)
	go s.publishLoop(ctx)
	go s.keepTasks(keepCtx)
	return nil
}

// ReplicaID identifies this replica in its cluster ("" without one).
func (s *Server) ReplicaID() string {
	if s.cl == nil {
		return ""
	}
	return s.cl.replica
}

// leaveCluster stops the keeping of task records, writes once more the
// records whose last write failed (a final status above all), sends what
// is queued, then stops the subscription and the heartbeat; the writes
// and the sending are bounded by ctx, or by stopAfter when ctx has ended
// (what is left unsent then is dropped, logged with its count), and
// end at once once the writes are abandoned. Shutdown calls it once tasks
// have ended: while it drains, the replica still beats, so the others do
// not take its running tasks for orphans; or, having abandoned the writes,
// when its wait for them ends.
func (s *Server) leaveCluster(ctx context.Context) {
	if s.cl == nil {
		return
	}
	s.cl.leave.Do(func() {
		s.cl.stopKeep()
		<-s.cl.kept
		var cancel context.CancelFunc
		if ctx.Err() != nil {
			ctx, cancel = context.WithTimeout(s.cl.writes, s.lim.stopAfter)
		} else {
			ctx, cancel = context.WithCancel(ctx)
			defer context.AfterFunc(s.cl.writes, cancel)()
		}
		defer cancel()
		s.flushUnstored(ctx)
		close(s.cl.outbox)
		select {
		case <-s.cl.sent:
		case <-ctx.Done(): // the backend hangs: drop what is left
			s.cl.stop()
			<-s.cl.sent
		}
		s.cl.stop()
		<-s.cl.beaten
		s.cl.abandonWrites()
	})
}

func (s *Server) heartbeat(ctx context.Context) {
	defer close(s.cl.beaten)
	tick := time.NewTicker(heartbeatEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			hctx, cancel := context.WithTimeout(ctx, clusterTimeout)
			if err := s.cl.c.Heartbeat(hctx, s.cl.replica, heartbeatTTL); err != nil {
				s.logger.Warn("cluster heartbeat failed", "replica", s.cl.replica, "err", err)
			}
			cancel()
		}
	}
}

// publishLoop sends queued changes in order until the outbox is closed;
// once ctx ends it drops the rest.
func (s *Server) publishLoop(ctx context.Context) {
	defer close(s.cl.sent)
	defer func() {
		if n := s.cl.dropped.Load(); n > 0 && ctx.Err() != nil {
			s.logger.Warn("cluster: changes dropped when leaving", "dropped", n)
		}
	}()
	for msg := range s.cl.outbox {
		if ctx.Err() != nil { // leaving, out of time: drop the rest
			s.cl.dropped.Add(1)
			continue
		}
		pctx, cancel := context.WithTimeout(ctx, clusterTimeout)
		if err := s.cl.c.Publish(pctx, msg); err != nil {
			s.logger.Warn("cluster publish failed; other replicas miss a change", "err", err)
		} else if n := s.cl.dropped.Swap(0); n > 0 {
			s.logger.Warn("cluster: changes were dropped while the outbox was full", "dropped", n)
		}
		cancel()
	}
}

// outboxSize bounds the changes queued for the other replicas.
const outboxSize = 1024

// broadcast queues a change of this replica for the others; nothing
// without a cluster. It never waits for the backend: the changes travel
// at most once, so one that finds the outbox full (the backend slow or
// down) is dropped and counted (logged when dropping starts and, with
// the count, once a change is sent again); the other replicas' task
// reads and the owner's passes over its tasks do not depend on it.
func (s *Server) broadcast(kind ChangeKind, uri, taskID string) {
	if s.cl == nil {
		return
	}
	msg, _ := json.Marshal(clusterMessage{Replica: s.cl.replica, Kind: kind, URI: uri, TaskID: taskID})
	defer func() { _ = recover() }() // the outbox is closed: the server has shut down
	select {
	case s.cl.outbox <- msg:
	default:
		if s.cl.dropped.Add(1) == 1 {
			s.logger.Warn("cluster: the outbox is full (the backend is slow or unreachable); dropping changes for the other replicas")
		}
	}
}

// announce broadcasts kind when a registry change succeeded (err is nil)
// and returns err.
func (s *Server) announce(kind ChangeKind, err error) error {
	if err == nil {
		s.broadcast(kind, "", "")
	}
	return err
}

// deliverRemote applies a change published by another replica: the
// application's OnRemoteChange first (so a list answered afterwards is
// current), then this replica's listen streams; a task change (a status
// change, or input or a cancellation given on another replica) first
// refreshes the task when this replica runs it.
func (s *Server) deliverRemote(raw []byte) {
	var m clusterMessage
	if err := json.Unmarshal(raw, &m); err != nil || m.Replica == s.cl.replica {
		return
	}
	if m.Kind == ChangeTask {
		s.remoteTaskChange(m.TaskID)
		if s.cl.onChange != nil {
			s.cl.onChange(s, Change{Kind: m.Kind, TaskID: m.TaskID, Replica: m.Replica})
		}
		s.taskStatusChanged(m.TaskID) // streams of this replica watching it (listen_tasks.go)
		return
	}
	var local change
	switch m.Kind {
	case ChangeTools:
		local = changeTools
	case ChangePrompts:
		local = changePrompts
	case ChangeResources:
		local = changeResources
	case ChangeResourceUpdated:
		local = changeResourceUpdated
	default:
		return
	}
	before := s.subs.published(local)
	if s.cl.onChange != nil {
		s.cl.onChange(s, Change{Kind: m.Kind, URI: m.URI, Replica: m.Replica})
	}
	// A list change the application applied through Local() has notified
	// the streams already; otherwise they hear it here.
	if local == changeResourceUpdated || s.subs.published(local) == before {
		s.subs.publish(local, m.URI)
	}
}

// clusterReady is the cluster's part of Ready.
func (s *Server) clusterReady(ctx context.Context) error {
	if s.cl == nil {
		return nil
	}
	pctx, cancel := context.WithTimeout(ctx, clusterTimeout)
	defer cancel()
	if err := s.cl.c.Ping(pctx); err != nil {
		return fmt.Errorf("cluster unreachable: %w", err)
	}
	return nil
}

// LocalChanges changes this replica's registries and notifies its own
// listen streams without publishing to the cluster: the way to apply a
// change another replica announced (Options.OnRemoteChange).
type LocalChanges struct{ s *Server }

// Local returns the replica-local view of s's registries.
func (s *Server) Local() LocalChanges { return LocalChanges{s} }

// AddTools is Server.AddTools without publishing.
func (l LocalChanges) AddTools(tools ...Tool) error { return l.s.tools.add(tools) }

// RemoveTools is Server.RemoveTools without publishing.
func (l LocalChanges) RemoveTools(names ...string) { l.s.tools.remove(names) }

// AddPrompts is Server.AddPrompts without publishing.
func (l LocalChanges) AddPrompts(prompts ...Prompt) error { return l.s.prompts.add(prompts) }

// RemovePrompts is Server.RemovePrompts without publishing.
func (l LocalChanges) RemovePrompts(names ...string) { l.s.prompts.remove(names) }

// AddResources is Server.AddResources without publishing.
func (l LocalChanges) AddResources(resources ...Resource) error {
	return l.s.resources.add(resources, nil)
}

// AddResourceTemplates is Server.AddResourceTemplates without publishing.
func (l LocalChanges) AddResourceTemplates(templates ...ResourceTemplate) error {
	return l.s.resources.add(nil, templates)
}

// RemoveResources is Server.RemoveResources without publishing.
func (l LocalChanges) RemoveResources(uris ...string) { l.s.resources.remove(uris) }

// Package clustertest checks implementations of server.Cluster: Backend
// runs the contract every backend must keep (pub/sub order, compare-and-swap
// task records of any id and size, heartbeats), Replicas runs several servers on one backend
// and checks what a client sees through a load balancer (a listen on one
// replica hears a change made on another, a task created on one is read,
// answered and cancelled on the others, a task whose owner died is
// reported failed). NewMemory is an in-process Cluster for tests of
// replicas in one process; it is not a way to run replicas.
package clustertest

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// Memory is a server.Cluster whose replicas live in one process (tests).
type Memory struct {
	mu    sync.Mutex
	subs  []chan []byte
	tasks map[string]memRecord
	beats map[string]time.Time
	rev   uint64
}

type memRecord struct {
	data    []byte
	rev     uint64
	expires time.Time
}

// NewMemory returns an empty in-process cluster; give the same value to
// every replica of a test.
func NewMemory() *Memory {
	return &Memory{tasks: map[string]memRecord{}, beats: map[string]time.Time{}}
}

// Publish implements server.Cluster.
func (m *Memory) Publish(_ context.Context, msg []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, ch := range m.subs {
		ch <- append([]byte(nil), msg...)
	}
	return nil
}

// Subscribe implements server.Cluster.
func (m *Memory) Subscribe(ctx context.Context, deliver func([]byte)) error {
	ch := make(chan []byte, 4096)
	m.mu.Lock()
	m.subs = append(m.subs, ch)
	m.mu.Unlock()
	go func() {
		for {
			select {
			case <-ctx.Done():
				m.mu.Lock()
				m.subs = slices.DeleteFunc(m.subs, func(c chan []byte) bool { return c == ch })
				m.mu.Unlock()
				return
			case msg := <-ch:
				deliver(msg)
			}
		}
	}()
	return nil
}

// Heartbeat implements server.Cluster.
func (m *Memory) Heartbeat(_ context.Context, replica string, ttl time.Duration) error {
	m.mu.Lock()
	m.beats[replica] = time.Now().Add(ttl)
	m.mu.Unlock()
	return nil
}

// Alive implements server.Cluster.
func (m *Memory) Alive(_ context.Context, replica string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return time.Now().Before(m.beats[replica]), nil
}

// Ping implements server.Cluster.
func (m *Memory) Ping(context.Context) error { return nil }

// Tasks implements server.Cluster.
func (m *Memory) Tasks() server.TaskStore { return memTasks{m} }

type memTasks struct{ m *Memory }

func (t memTasks) Create(_ context.Context, id string, record []byte, expires time.Time) error {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	if r, ok := t.m.tasks[id]; ok && time.Now().Before(r.expires) {
		return server.ErrTaskExists
	}
	t.m.rev++
	t.m.tasks[id] = memRecord{append([]byte(nil), record...), t.m.rev, expires}
	return nil
}

func (t memTasks) Load(_ context.Context, id string) ([]byte, uint64, error) {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	r, ok := t.m.tasks[id]
	if !ok || !time.Now().Before(r.expires) {
		return nil, 0, server.ErrTaskNotFound
	}
	return append([]byte(nil), r.data...), r.rev, nil
}

func (t memTasks) Swap(_ context.Context, id string, record []byte, revision uint64, expires time.Time) error {
	t.m.mu.Lock()
	defer t.m.mu.Unlock()
	r, ok := t.m.tasks[id]
	if !ok || !time.Now().Before(r.expires) {
		return server.ErrTaskNotFound
	}
	if r.rev != revision {
		return server.ErrTaskConflict
	}
	t.m.rev++
	t.m.tasks[id] = memRecord{append([]byte(nil), record...), t.m.rev, expires}
	return nil
}

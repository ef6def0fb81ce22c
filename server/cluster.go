package server

import (
	"context"
	"time"
)

// Cluster connects the replicas of one server so that any of them answers
// any request: what one replica changes reaches the listen streams of all
// (Publish/Subscribe), and tasks live in a store they share (Tasks). Set
// it in Options.Cluster; the implementations are their own Go modules, so a
// server without one links none of their dependencies:
//
//	github.com/mcpgen/mcpgen/cluster/nats   NATS core pub/sub + JetStream KV
//	github.com/mcpgen/mcpgen/cluster/redis  Redis pub/sub + keys
//
// The runtime owns the bytes: a backend carries opaque messages and
// records, and needs no knowledge of MCP. Legacy (initialize-era) HTTP
// sessions stay in the memory of the replica that created them; a balancer
// routes them by Mcp-Session-Id (README, "Running several replicas").
type Cluster interface {
	// Publish delivers msg to every replica subscribed (this one included
	// or not: the runtime ignores its own messages). It returns once the
	// backend has taken the message.
	Publish(ctx context.Context, msg []byte) error
	// Subscribe starts delivering every published message to deliver, one
	// at a time and in publication order per publisher, until ctx ends. It
	// returns once the subscription is active, so a message published
	// after it returns is not missed.
	Subscribe(ctx context.Context, deliver func(msg []byte)) error
	// Heartbeat records that replica is alive for ttl (not alive at all
	// for a ttl of 0 or less); Alive reports whether a replica's last
	// heartbeat is younger than its ttl. A task whose owner is no longer
	// alive is reported failed.
	Heartbeat(ctx context.Context, replica string, ttl time.Duration) error
	Alive(ctx context.Context, replica string) (bool, error)
	// Tasks is the store every replica reads and updates tasks in
	// (cluster_taskstore.go).
	Tasks() TaskStore
	// Ping reports whether the backend answers (the /readyz probe).
	Ping(ctx context.Context) error
}

// ChangeKind names what another replica changed.
type ChangeKind string

// Change kinds.
const (
	ChangeTools           ChangeKind = "tools"     // its tool set (AddTools, RemoveTools)
	ChangePrompts         ChangeKind = "prompts"   // its prompt set
	ChangeResources       ChangeKind = "resources" // its resources or templates
	ChangeResourceUpdated ChangeKind = "resource"  // ResourceUpdated(URI)
	ChangeTask            ChangeKind = "task"      // a task's status or input (TaskID)
)

// Change is one change another replica published.
type Change struct {
	Kind    ChangeKind
	URI     string // ChangeResourceUpdated
	TaskID  string // ChangeTask
	Replica string // the publishing replica (Server.ReplicaID)
}

// Cluster timing: a replica renews its heartbeat every heartbeatEvery;
// others consider it gone after heartbeatTTL without one.
const (
	heartbeatEvery = time.Second
	heartbeatTTL   = 4 * time.Second
	clusterTimeout = 5 * time.Second // one backend round trip
)

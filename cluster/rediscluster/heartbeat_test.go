package rediscluster

import (
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
	"github.com/mcpgen/mcpgen/server/clustertest"
)

// server.Cluster: "Heartbeat records that replica is alive for ttl; Alive
// reports whether a replica's last heartbeat is younger than its ttl." A
// heartbeat with a zero ttl is younger than it never: the replica is not
// alive (on Redis, a SET with no expiry would keep it alive for ever).
func heartbeatZeroTTL(t *testing.T, c server.Cluster) {
	ctx := t.Context()
	replica := "zero-" + time.Now().Format("150405.000000000")
	if err := c.Heartbeat(ctx, replica, time.Second); err != nil {
		t.Fatal(err)
	}
	if err := c.Heartbeat(ctx, replica, 0); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1200 * time.Millisecond) // past even the first heartbeat's ttl
	if alive, err := c.Alive(ctx, replica); err != nil || alive {
		t.Fatalf("Alive after a heartbeat with ttl 0, 1.2 s after one of 1 s: %v %v, want false", alive, err)
	}
}

func TestHeartbeatWithZeroTTLIsNotAliveMemory(t *testing.T) {
	heartbeatZeroTTL(t, clustertest.NewMemory())
}

func TestHeartbeatWithZeroTTLIsNotAlive(t *testing.T) { heartbeatZeroTTL(t, connect(t, startRedis(t))) }

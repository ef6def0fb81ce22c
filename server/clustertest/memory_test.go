package clustertest

import (
	"testing"

	"github.com/mcpgen/mcpgen/server"
)

func TestMemoryBackend(t *testing.T) {
	m := NewMemory()
	Backend(t, m, m)
}

func TestMemoryReplicas(t *testing.T) {
	var m *Memory
	Replicas(t, func(testing.TB) server.Cluster {
		if m == nil {
			m = NewMemory()
		}
		return m
	})
}

func BenchmarkMemory(b *testing.B) {
	m := NewMemory()
	Bench(b, func(testing.TB) server.Cluster { return m })
}

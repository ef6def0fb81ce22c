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
	Replicas(t, func(t *testing.T) server.Cluster {
		if m == nil {
			m = NewMemory()
		}
		return m
	})
}

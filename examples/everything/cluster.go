package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mcpgen/mcpgen/cluster/natscluster"
	"github.com/mcpgen/mcpgen/cluster/rediscluster"
	"github.com/mcpgen/mcpgen/server"
)

// clusterFromEnv connects this replica to the others when MCPGEN_NATS_URL
// or MCPGEN_REDIS_URL is set (not both); with neither it returns nil and
// the server shares nothing. The closer ends the connection after the
// server has shut down.
func clusterFromEnv() (server.Cluster, io.Closer, error) {
	natsURL, redisURL := os.Getenv(natscluster.URLEnv), os.Getenv(rediscluster.URLEnv)
	switch {
	case natsURL != "" && redisURL != "":
		return nil, nil, errors.New("set " + natscluster.URLEnv + " or " + rediscluster.URLEnv + ", not both")
	case natsURL != "":
		c, err := natscluster.Connect(natsURL, natscluster.Options{Name: serverName})
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", natscluster.URLEnv, err)
		}
		return c, c, nil
	case redisURL != "":
		c, err := rediscluster.Connect(redisURL, rediscluster.Options{Name: serverName})
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", rediscluster.URLEnv, err)
		}
		return c, c, nil
	}
	return nil, nil, nil
}

// applyRemoteChange mirrors another replica's run-time change here: the
// trigger tools (tools_runtime.go) register the transient tool or prompt,
// and every replica must list it, as one server would.
func (e *Everything) applyRemoteChange(s *server.Server, c server.Change) {
	switch c.Kind {
	case server.ChangeTools:
		_ = s.Local().AddTools(transientTool())
	case server.ChangePrompts:
		_ = s.Local().AddPrompts(transientPrompt())
	}
}

package main

import (
	"strings"

	"github.com/mcpgen/mcpgen/server"
)

// deployment is what a deployed replica sets beyond a local run: the Host
// and Origin values it answers to besides loopback (behind a load balancer
// or in a container), the requestState key ring every replica shares
// (MCPGEN_STATE_KEYS, comma-separated base64) and the cluster that
// connects the replicas (MCPGEN_NATS_URL or MCPGEN_REDIS_URL).
type deployment struct {
	allowedHosts, allowedOrigins string // comma-separated flag values
	cluster                      server.Cluster
}

// apply sets the deployment's options.
func (d deployment) apply(opts *server.Options) error {
	keys, err := server.StateKeysFromEnv()
	if err != nil {
		return err
	}
	opts.StateKeys = keys
	opts.HTTP.AllowedHosts = splitList(d.allowedHosts)
	opts.HTTP.AllowedOrigins = splitList(d.allowedOrigins)
	return nil
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

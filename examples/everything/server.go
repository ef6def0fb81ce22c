package main

import "github.com/mcpgen/mcpgen/server"

// Server identity reported in serverInfo and server/discover.
const (
	serverName    = "mcpgen-everything"
	serverVersion = "1.0.0"
)

// Everything holds the fixtures. The trigger tools change the server's own
// tool and prompt sets at run time, so they keep the server.
type Everything struct {
	srv *server.Server
}

// newServer builds the everything server: every fixture bound by mcp_gen.go,
// results cacheable for 0 ms by anyone, deployed as d says.
func newServer(d deployment) (*server.Server, error) {
	e := &Everything{}
	opts := server.Options{
		Name:    serverName,
		Title:   "mcpgen everything server",
		Version: serverVersion,
		Instructions: "Conformance fixture server: every tool, prompt, resource and " +
			"completion the MCP conformance suite exercises.",
		Cache: server.CachePolicy{TTLMs: 0, Scope: "public"},
	}
	if err := d.apply(&opts); err != nil {
		return nil, err
	}
	if d.cluster != nil {
		opts.Cluster, opts.OnRemoteChange = d.cluster, e.applyRemoteChange
	}
	e.MCPRegister(&opts)
	opts.Tools = append(opts.Tools, e.taskTools()...) // tasks.go: a BeforeTask hook has no directive key
	sk, err := registerSkills(&opts)                  // skills.go
	if err != nil {
		return nil, err
	}
	srv, err := server.New(opts)
	if err != nil {
		return nil, err
	}
	sk.Bind(srv)
	e.srv = srv
	return srv, nil
}

package server

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/internal/httpwire"
	"github.com/mcpgen/mcpgen/internal/jsonenc"
)

// Server serves MCP 2026-07-28 over any transport: Handle is the
// transport-independent core, ServeStdio and HTTPHandler are the
// transports. It is safe for concurrent use.
//
// The server keeps no per-client state: every request carries its protocol
// version and client capabilities in _meta, multi round-trip state travels
// sealed in requestState, and only open subscriptions/listen streams live
// in memory. (A legacy-session layer for initialize-based clients can sit in
// front of Handle later; Handle answers initialize with -32601 until then.)
type Server struct {
	opts     Options
	info     mcp.Implementation
	versions []string
	metaJSON []byte // {"io.modelcontextprotocol/serverInfo":{…}}
	cache    CachePolicy
	ring     stateRing // seals and opens requestState
	stateTTL time.Duration
	now      func() time.Time // the clock requestState expiry is sealed and checked on (time.Now)
	pageSize int
	logger   *slog.Logger

	tools     toolRegistry
	prompts   promptRegistry
	resources resourceRegistry

	dispatch *mcp.Dispatcher // user Handlers; nil when none

	subs subscriptions

	sessions legacySessions // HTTP legacy sessions by Mcp-Session-Id

	tasks      taskStore     // tasks extension (tasks*.go)
	extensions extensionSet  // the tasks extension and Options.Extensions
	cl         *clusterState // Options.Cluster membership; nil without one (cluster*.go)

	lim  limiter    // Options.Limits at run time (limits.go, admit.go, drain.go)
	rate *rateTable // Limits.Rate (ratelimit*.go); nil: off

	chain Handler // Options.Interceptors around the core; nil when none (intercept.go)

	closeOnce sync.Once
	closing   chan struct{} // closed by Shutdown
	streams   sync.WaitGroup
}

// defaultStateTTL bounds how long a requestState may be replayed.
const defaultStateTTL = 15 * time.Minute

// New builds a server; invalid or duplicate tool names and other
// configuration errors are returned here, not at the first call.
func New(opts Options) (*Server, error) {
	s := &Server{
		opts:     opts,
		versions: []string{mcp.ProtocolVersion},
		cache:    opts.Cache.normalized(),
		stateTTL: opts.StateTTL,
		now:      time.Now,
		pageSize: opts.PageSize,
		logger:   opts.Logger,
		closing:  make(chan struct{}),
	}
	var errs []error
	if opts.Name == "" {
		errs = append(errs, errors.New("server: Options.Name is required (it is the serverInfo name)"))
	}
	if opts.Version == "" {
		s.opts.Version = "0.0.0"
	}
	if opts.PageSize < 0 {
		errs = append(errs, errors.New("server: Options.PageSize must not be negative"))
	}
	if opts.Cache.Scope != "" && opts.Cache.Scope != "public" && opts.Cache.Scope != "private" {
		errs = append(errs, fmt.Errorf("server: Options.Cache.Scope %q must be \"public\" or \"private\"", opts.Cache.Scope))
	}
	if opts.Cache.TTLMs < 0 {
		errs = append(errs, errors.New("server: Options.Cache.TTLMs must not be negative"))
	}
	if err := opts.HTTP.checkNames(); err != nil {
		errs = append(errs, err)
	}
	if s.stateTTL <= 0 {
		s.stateTTL = defaultStateTTL
	}
	if s.logger == nil {
		s.logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	if ring, err := newStateRing(opts.StateKey, opts.StateKeys); err != nil {
		errs = append(errs, err)
	} else {
		s.ring = ring
	}
	s.info = mcp.Implementation{Name: opts.Name, Title: opts.Title, Version: s.opts.Version}
	s.metaJSON = serverInfoMeta(s.info)

	s.buildChain(opts.Interceptors)
	s.lim.init(opts.Limits)
	s.rate = newRateTable(s.lim.cfg.Rate)
	s.sessions.max = s.lim.cfg.MaxLegacySessions
	s.sessions.perClientMax = s.lim.cfg.MaxLegacySessionsPerClient
	s.tasks.perClient = s.lim.cfg.MaxTasksPerClient
	s.tasks.changed = s.taskStatusChanged
	s.tools.init(s)
	s.prompts.init(s)
	s.resources.init(s)
	if len(opts.Tools) > 0 {
		if err := s.tools.add(opts.Tools); err != nil {
			errs = append(errs, err)
		}
	}
	if len(opts.Prompts) > 0 {
		if err := s.prompts.add(opts.Prompts); err != nil {
			errs = append(errs, err)
		}
	}
	if len(opts.Resources) > 0 || len(opts.ResourceTemplates) > 0 {
		if err := s.resources.add(opts.Resources, opts.ResourceTemplates); err != nil {
			errs = append(errs, err)
		}
	}
	if err := s.extensions.add(append([]Extension{s.tasksExtension()}, opts.Extensions...)); err != nil {
		errs = append(errs, err)
	}
	if len(opts.Handlers) > 0 {
		for i, h := range opts.Handlers {
			switch h.(type) {
			case nil:
				errs = append(errs, fmt.Errorf("server: Options.Handlers[%d] is nil", i))
			case mcp.CompletionHandler, mcp.PromptsHandler, mcp.ResourcesHandler,
				mcp.ServerHandler, mcp.SubscriptionsHandler, mcp.ToolsHandler:
			default:
				errs = append(errs, fmt.Errorf("server: Options.Handlers[%d] (%T) implements no handler interface (mcp.ToolsHandler, mcp.PromptsHandler, mcp.ResourcesHandler, mcp.CompletionHandler, mcp.ServerHandler, mcp.SubscriptionsHandler): check its method signatures", i, h))
			}
		}
		s.dispatch = mcp.NewDispatcher(opts.Handlers...)
		s.dispatch.Before = s.beforeHandler
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if opts.Cluster != nil {
		if err := s.joinCluster(opts.Cluster, opts.OnRemoteChange); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// SupportedVersions lists the protocol versions the server speaks, newest
// first: the modern one, served statelessly, then the initialize-era ones
// served in legacy sessions (2025-11-25, 2025-06-18, 2025-03-26,
// 2024-11-05).
func (s *Server) SupportedVersions() []string {
	return append(append([]string(nil), s.versions...), legacyVersions...)
}

func (s *Server) supports(version string) bool {
	for _, v := range s.versions {
		if v == version {
			return true
		}
	}
	return false
}

// completions reports whether completion/complete is answered: a prompt
// or template argument type implements Completer, or a handler does.
func (s *Server) completions() bool {
	return s.prompts.hasCompleter() || s.resources.hasCompleter() ||
		(s.dispatch != nil && s.dispatch.Offers("completion"))
}

// handles reports whether a user handler takes over method.
func (s *Server) handles(method string) bool {
	return s.dispatch != nil && s.dispatch.Handles(method)
}

// offers reports whether the server offers a feature ("tools", "prompts",
// "resources"), through its registry or a user handler.
func (s *Server) offers(feature string) bool {
	switch feature {
	case "tools":
		if s.tools.offered() {
			return true
		}
	case "prompts":
		if s.prompts.offered() {
			return true
		}
	case "resources":
		if s.resources.offered() {
			return true
		}
	}
	return s.dispatch != nil && s.dispatch.Offers(feature)
}

// toolParamHeaders returns the x-mcp-header declarations of the tool
// registered under name (for the HTTP transport's Mcp-Param-* checks).
func (s *Server) toolParamHeaders(name string) []httpwire.ParamHeader {
	if t := s.tools.get(name); t != nil {
		return t.paramHeaders
	}
	return nil
}

func (s *Server) isClosing() bool {
	select {
	case <-s.closing:
		return true
	default:
		return false
	}
}

// serverInfoMeta is {"io.modelcontextprotocol/serverInfo":{…}} for info,
// byte for byte what json.Marshal writes for it through mcp.Implementation's
// encoder (TestServerInfoMetaIsJSONMarshal): name, title when set, version,
// each string escaped as encoding/json escapes it (which cannot fail). The
// server sets only these three fields. Written here because the generated
// encoder would run for this one value only: its code (the generated
// package's reflection encoder and Implementation's methods, in three
// 64 KiB stretches of the binary the kernel maps in whole on first use)
// would stay resident for nothing.
func serverInfoMeta(info mcp.Implementation) []byte {
	b := make([]byte, 0, 64+len(info.Name)+len(info.Title)+len(info.Version))
	b = append(b, `{"`+keyServerInfo+`":{"name":`...)
	b = jsonenc.AppendString(b, []byte(info.Name))
	if info.Title != "" {
		b = append(b, `,"title":`...)
		b = jsonenc.AppendString(b, []byte(info.Title))
	}
	b = append(b, `,"version":`...)
	b = jsonenc.AppendString(b, []byte(info.Version))
	return append(b, "}}"...)
}

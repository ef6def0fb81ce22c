package server

import (
	"context"
	"errors"
	"maps"

	"github.com/mcpgen/mcpgen/generated/mcp"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// tasksCapability is the client capability the tasks extension needs.
func tasksCapability() mcp.ClientCapabilities {
	return mcp.ClientCapabilities{Extensions: map[string]mcp.JSONObject{TasksExtension: {}}}
}

// declaresTasks reports whether the current request declared the tasks
// extension. Legacy sessions never do: tasks are a 2026-07-28 extension.
func declaresTasks(ctx context.Context, r *request) bool {
	if legacyFrom(ctx) != nil {
		return false
	}
	caps, err := r.capabilities()
	if err != nil {
		return false
	}
	_, ok := caps.Extensions[TasksExtension]
	return ok
}

// runsInline reports whether a tools/call of t runs the tool in the
// request, as a tool without task support does (callTask leaves it, not
// handled): a tool with optional support called by a request that does
// not declare the tasks extension too.
func (t *toolImpl) runsInline(ctx context.Context, r *request) bool {
	switch t.taskSupport {
	case TaskSupportNone:
		return true
	case TaskSupportOptional:
		return !declaresTasks(ctx, r)
	}
	return false
}

// callTask is tools/call for a task-supporting tool. handled is false when
// the tool runs inline as before (the request did not declare the extension
// and the tool's support is optional). Otherwise it answers -32021 (required
// support, extension not declared), the BeforeTask outcome when that did not
// finish (an InputRequiredResult, an error), or the CreateTaskResult of the
// task it started.
func (g *toolRegistry) callTask(ctx context.Context, r *request, p *requestParams, t *toolImpl) (out any, handled bool, err error) {
	if !declaresTasks(ctx, r) {
		if t.taskSupport == TaskSupportRequired {
			// Not RequireCapabilities: a legacy session's initialize may
			// have declared the extension, which it cannot use.
			return nil, true, missingCapabilities(tasksCapability())
		}
		return nil, false, nil
	}
	if t.beforeTask != nil {
		if err := t.beforeTask(ctx); err != nil {
			if isProtocolError(err) || ctx.Err() != nil {
				return nil, true, err
			}
			return toolError(errorText(err)), true, nil
		}
	}
	meta := requestMeta{
		protocolVersion: r.meta.protocolVersion,
		caps:            append([]byte(nil), r.meta.caps...),
		clientInfo:      append([]byte(nil), r.meta.clientInfo...),
	}
	tk, tctx, rerr := g.s.tasks.add(t, append([]byte(nil), p.arguments...), meta, g.s.clientID(ctx))
	if rerr != nil {
		return nil, true, rerr
	}
	tk.owner = taskOwner(ctx)
	if g.s.cl != nil {
		if err := g.s.createTaskRecord(ctx, tk); err != nil {
			tk.cancel()
			g.s.tasks.drop(tk)
			return nil, true, storeError(err)
		}
	}
	x := r.roundsFor()
	x.mu.Lock()
	tk.answers = cloneAnswers(x.answers) // all of them: Ask in the task decodes them as inline
	tk.state = x.state
	if x.stateSet {
		tk.state = x.newState
	}
	x.mu.Unlock()
	created := tk.wire(false, g.s.metaJSON) // status working, before the tool can change it
	go g.s.runTask(tctx, tk)
	return created, true, nil
}

// runTask runs a task's tool in rounds until it finishes, fails, is
// cancelled or its TTL ends. A round that needs input parks the task as
// input_required until tasks/update has answered every pending request.
func (s *Server) runTask(ctx context.Context, t *task) {
	defer s.tasks.running.Done()
	defer t.cancel()
	defer s.mirrorTask(t) // the final status, for the other replicas (cluster)
	for {
		t.mu.Lock()
		r := &request{s: s, method: mcp.MethodToolsCall, meta: t.meta, mrtrAllowed: true}
		r.mrtr.Store(&mrtrRounds{answers: maps.Clone(t.answers),
			idName: t.tool.key, idArgs: t.args, idGiven: true, state: t.state})
		t.mu.Unlock()
		rctx := withRequest(withTaskOwner(ctx, t), r)
		r.ctx = rctx
		out, err := s.call(rctx, func(c context.Context) (any, error) { return t.tool.run(c, t.args, nil) })
		r.done.Store(true)
		if ctx.Err() != nil {
			t.finish(TaskCancelled, nil, nil, stopReason(ctx))
			return
		}
		var ire *InputRequiredError
		switch {
		case errors.As(err, &ire):
			if !s.parkTask(ctx, t, r, ire) {
				t.finish(TaskCancelled, nil, nil, stopReason(ctx))
				return
			}
		case err != nil:
			t.finish(TaskFailed, nil, toRPCError(err), "")
			return
		default:
			b, rerr := s.encodeToolOutput(r, out)
			if rerr != nil {
				t.finish(TaskFailed, nil, rerr, "")
				return
			}
			t.finish(TaskCompleted, b, nil, "")
			return
		}
	}
}

// stopReason is the status message of a task stopped by its context.
func stopReason(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "the task's ttl ended"
	}
	return "cancelled"
}

// parkTask records the input a round asked for (a key asked again under a
// fresh wire key, tasks_keys.go) and waits until tasks/update has answered
// all of it; false when the task ended meanwhile (or the round asked for
// nothing, or for input the client did not declare, which fails the task).
func (s *Server) parkTask(ctx context.Context, t *task, r *request, ire *InputRequiredError) bool {
	reqs, err := r.openRequests(ire)
	if err != nil {
		t.finish(TaskFailed, nil, toRPCError(err), "")
		return false
	}
	x := r.roundsFor()
	x.mu.Lock()
	newState, stateSet := x.newState, x.stateSet
	x.mu.Unlock()
	if len(reqs) == 0 {
		t.finish(TaskFailed, nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
			Message: "Internal error: the tool asked for input without input requests"}, "")
		return false
	}
	t.mu.Lock()
	if t.terminal() {
		t.mu.Unlock()
		return false
	}
	if stateSet {
		t.state = newState
	}
	t.surfaceLocked(reqs)
	t.setStatus(TaskInputRequired, "")
	t.mu.Unlock()
	s.mirrorTask(t) // cluster: answers given elsewhere wake it (remoteTaskChange, keepTasks)
	select {
	case <-ctx.Done():
		return false
	case <-t.wake:
		return true
	}
}

// encodeToolOutput encodes what a tool's run returned as its complete
// result.
func (s *Server) encodeToolOutput(r *request, out any) ([]byte, *jsonrpc.Error) {
	if tt, ok := out.(*toolText); ok {
		return tt.encode(s.metaJSON), nil
	}
	return s.encodeResult(r, out)
}

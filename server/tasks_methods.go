package server

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// tasksExtension is the tasks extension on the public extension API:
// tasks/get, tasks/update and tasks/cancel, offered (declared in
// capabilities.extensions, answered rather than -32601) once a tool
// supporting tasks has been registered, or always in a cluster
// (servesTasks), and -32021 unless the
// request declares the extension. Initialize-era sessions never see it.
func (s *Server) tasksExtension() Extension {
	return Extension{
		ID:                TasksExtension,
		ClientMustDeclare: true,
		Offered:           s.servesTasks,
		Methods: []ExtensionMethod{
			NewMethod(MethodInfo{Name: methodTasksGet}, s.tasksGetAny),
			NewMethod(MethodInfo{Name: methodTasksUpdate}, s.tasksUpdateAny),
			NewMethod(MethodInfo{Name: methodTasksCancel}, s.tasksCancelAny),
		},
	}
}

// servesTasks reports whether the tasks extension is offered: from the
// first registration of a tool supporting tasks on, for the server's life,
// and with a Cluster always. Removing the tools does not withdraw it, since
// tasks they created live on until their ttlMs ends, and tasks/get must
// still hand out their results and tasks/cancel still stop them; in a
// cluster the shared store holds tasks of every replica, which any replica
// answers for, whatever tools it has itself.
func (s *Server) servesTasks() bool { return s.cl != nil || s.tools.tasksOffered.Load() }

// taskParams are the params of tasks/get, tasks/update and tasks/cancel.
type taskParams struct {
	TaskID         *string                    `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
}

// lookupTask returns the task of a tasks request (-32602 when taskId is
// missing, unknown, expired or another principal's; insufficient scope when
// the token lacks its tool's scopes). The runtime has checked the extension
// (-32021) and decoded the params.
func (s *Server) lookupTask(ctx context.Context, p taskParams) (*task, error) {
	if p.TaskID == nil {
		return nil, invalidParams("params.taskId: missing required member")
	}
	t := s.tasks.get(*p.TaskID)
	if t == nil || !t.ownedBy(ctx) {
		return nil, invalidParams(fmt.Sprintf("Unknown task: %q", *p.TaskID))
	}
	if err := checkScopes(ctx, t.scopes()); err != nil {
		return nil, err
	}
	return t, nil
}

// tasksGet answers tasks/get with the DetailedTask.
func (s *Server) tasksGet(ctx context.Context, p taskParams) (any, error) {
	t, err := s.lookupTask(ctx, p)
	if err != nil {
		return nil, err
	}
	return t.wire(true, s.metaJSON), nil
}

// tasksCancel answers tasks/cancel: a running task becomes cancelled and its
// context is cancelled; a finished one is left as is. Both get the empty ack.
func (s *Server) tasksCancel(ctx context.Context, p taskParams) (any, error) {
	t, err := s.lookupTask(ctx, p)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	if !t.terminal() {
		t.setStatus(TaskCancelled, "cancelled by the client")
		t.pending = nil
	}
	t.mu.Unlock()
	t.cancel()
	return ackResult{ResultType: "complete", Meta: s.metaJSON}, nil
}

// tasksUpdate answers tasks/update: the answers to pending input requests
// are recorded (keys that are not pending are ignored); once none is
// pending the task resumes. An answer that does not decode as the result of
// its pending request (decodeAnswer) is -32602 and nothing is recorded.
func (s *Server) tasksUpdate(ctx context.Context, p taskParams) (any, error) {
	t, err := s.lookupTask(ctx, p)
	if err != nil {
		return nil, err
	}
	if p.InputResponses == nil {
		return nil, invalidParams("params.inputResponses: must be an object mapping keys to input responses")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.status != TaskInputRequired {
		return ackResult{ResultType: "complete", Meta: s.metaJSON}, nil
	}
	got := map[string]json.RawMessage{}
	for key, raw := range p.InputResponses {
		req, pending := t.pending[key]
		if !pending {
			continue
		}
		if _, err := decodeAnswer(req, raw); err != nil {
			return nil, answerError(key, req, err)
		}
		got[key] = raw
	}
	if len(got) > 0 {
		for key, raw := range got {
			t.answerLocked(key, raw)
		}
		t.updated = time.Now()
	}
	if len(t.pending) == 0 {
		t.setStatus(TaskWorking, "")
		select {
		case t.wake <- struct{}{}:
		default:
		}
	}
	return ackResult{ResultType: "complete", Meta: s.metaJSON}, nil
}

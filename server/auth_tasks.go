package server

import "context"

// Tasks are bound to their creator: tasks/get, tasks/update and
// tasks/cancel from another principal are answered like an unknown task
// (-32602), so nothing about the task leaks, and the task's handler sees
// the creator's Principal. A task also keeps the scopes of the tool that
// created it (ToolInfo.Scopes): each tasks request needs them as
// tools/call did, and a token without them is refused 403
// insufficient_scope before the tool resumes or its result is read.

// taskOwner records the current request's principal for a new task (nil
// when unauthenticated).
func taskOwner(ctx context.Context) *authState {
	st := authFrom(ctx)
	if st == nil {
		return nil
	}
	return &authState{info: st.info, gate: st.gate}
}

// ownedBy reports whether the current request's principal created t.
func (t *task) ownedBy(ctx context.Context) bool {
	var owner *TokenInfo
	if t.owner != nil {
		owner = t.owner.info
	}
	return owner.key() == principalKey(ctx)
}

// withTaskOwner gives a task's runner context the creator's principal.
func withTaskOwner(ctx context.Context, t *task) context.Context {
	if t.owner == nil {
		return ctx
	}
	return withAuth(ctx, t.owner)
}

// scopes are the scopes every request on t needs: those of its tool.
func (t *task) scopes() []string {
	if t.tool == nil {
		return nil
	}
	return t.tool.scopes
}

package server

import (
	"encoding/json"
	"strconv"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// Input request keys are unique over a task's life (ext-tasks, "Task
// Update Requests"): once an answer for a key has been delivered, the key
// never names another request. A tool may still ask again under a key it
// had answered (an InputRequiredError naming it, to prompt once more, as
// on the synchronous path); the task then surfaces that request under a
// fresh wire key, the tool's key with "#2", "#3"… appended, and files the
// answer to it under the tool's own key, replacing the earlier answer, so
// the tool's next round reads it with Ask as usual.

// surfaceLocked sets the task's pending requests from the tool's requests
// of one round, each under its wire key. Callers hold t.mu.
func (t *task) surfaceLocked(reqs mcp.InputRequests) {
	if t.usedKeys == nil {
		t.usedKeys = map[string]bool{}
	}
	pending := make(mcp.InputRequests, len(reqs))
	for key, req := range reqs {
		wire := key
		if t.keyUsedLocked(key) {
			wire = t.freshKeyLocked(key, reqs)
			if t.toolKeys == nil {
				t.toolKeys = map[string]string{}
			}
			t.toolKeys[wire] = key
		}
		t.usedKeys[wire] = true
		pending[wire] = req
	}
	t.pending = pending
}

// keyUsedLocked reports whether key was surfaced before or has an answer
// (from a round before the task was created, too). Callers hold t.mu.
func (t *task) keyUsedLocked(key string) bool {
	_, answered := t.answers[key]
	return answered || t.usedKeys[key]
}

// freshKeyLocked returns a wire key for a request the tool asks again under
// key: key#n, unused, and not another key the tool asks this round.
// Callers hold t.mu.
func (t *task) freshKeyLocked(key string, round mcp.InputRequests) string {
	for n := 2; ; n++ {
		wire := key + "#" + strconv.Itoa(n)
		if _, asked := round[wire]; !asked && !t.keyUsedLocked(wire) {
			return wire
		}
	}
}

// answerLocked records raw, the answer to the pending request under wire
// key wire, under the tool's key. Callers hold t.mu.
func (t *task) answerLocked(wire string, raw json.RawMessage) {
	if t.answers == nil {
		t.answers = map[string]json.RawMessage{}
	}
	key := wire
	if k, ok := t.toolKeys[wire]; ok {
		key = k
	}
	t.answers[key] = raw
	delete(t.pending, wire)
}

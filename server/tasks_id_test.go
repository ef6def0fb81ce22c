package server

import (
	"strings"
	"testing"
)

// Every id newTaskID generates has the form isTaskID accepts; nothing else
// does.
func TestTaskIDForm(t *testing.T) {
	for range 100 {
		id, err := newTaskID()
		if err != nil || !isTaskID(id) {
			t.Fatalf("newTaskID() = %q, %v: not a task id", id, err)
		}
	}
	for _, id := range []string{"", "no-such-task", strings.Repeat("a", 5000), strings.Repeat("a", 31),
		strings.Repeat("a", 33), strings.Repeat("A", 32), strings.Repeat("g", 32), "0123456789abcdef0123456789abcde.", "0123456789abcdef0123456789abcd\u00e9"} {
		if isTaskID(id) {
			t.Errorf("isTaskID(%.40q) = true", id)
		}
	}
}

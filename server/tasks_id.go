package server

import (
	"crypto/rand"
	"encoding/hex"
)

// Task ids. The runtime names every task with 16 random bytes in lowercase
// hex (32 characters), so a string of any other form is no task of any
// replica: the tasks/* methods and a listen's taskIds answer it unknown
// without asking the cluster's task store, which thus never sees a key a
// client made up (a 5000-character id, or characters the store's keys
// refuse). Every replica of a cluster must accept the ids every other one
// generates: widen isTaskID before a new form is generated.

// taskIDBytes is how many random bytes a task id holds.
const taskIDBytes = 16

// newTaskID returns a fresh random task id.
func newTaskID() (string, error) {
	var raw [taskIDBytes]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(raw[:]), nil
}

// isTaskID reports whether id has the form newTaskID generates.
func isTaskID(id string) bool {
	if len(id) != 2*taskIDBytes {
		return false
	}
	for i := range len(id) {
		if c := id[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

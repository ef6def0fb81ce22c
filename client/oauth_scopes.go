package client

import (
	"slices"
	"strings"
)

// maxStepUps bounds the step-ups in a row for one scope set: one that the
// server still refuses is asked for again at most that often before
// ErrInsufficientScope.
const maxStepUps = 2

// stepUpRun is the scope set of the latest step-up and how many step-ups
// in a row asked for it since the last login (basic/authorization/,
// Step-Up: a retry limit for repeated failures of one operation). A step-up
// for another set, or a new login after a 401, starts a new run.
type stepUpRun struct {
	scopes string
	count  int
}

// stepUpAllowed counts a step-up for scopes and reports whether it is
// within maxStepUps of its run.
func (o *OAuth) stepUpAllowed(scopes []string) bool {
	key := strings.Join(slices.Sorted(slices.Values(scopes)), " ")
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stepUps.scopes != key {
		o.stepUps = stepUpRun{scopes: key}
	}
	o.stepUps.count++
	return o.stepUps.count <= maxStepUps
}

package server

// errTaskQuota answers a task creation by a client that already has
// Limits.MaxTasksPerClient unfinished tasks.
var errTaskQuota = limitError(reasonQuota, "Internal error: this client has too many unfinished tasks; wait for one to finish or cancel one")

// atQuotaLocked reports whether client holds its quota of unfinished tasks
// (working or input_required). Finished tasks do not count: when the store
// is full they are evicted, those of the client holding the most first
// (evictFinishedLocked). A request with no client identity
// (the in-memory Caller, Handle called directly) has no quota, only the
// store's cap. Callers hold st.mu.
func (st *taskStore) atQuotaLocked(client string) bool {
	if st.perClient <= 0 || client == "" {
		return false
	}
	n := 0
	for _, t := range st.tasks {
		if t.client != client {
			continue
		}
		t.mu.Lock()
		fin := t.terminal()
		t.mu.Unlock()
		if !fin {
			if n++; n >= st.perClient {
				return true
			}
		}
	}
	return false
}

package server

// makeRoomLocked makes room for one more legacy HTTP session under
// Limits.MaxLegacySessions: at the cap it ends the session idle the longest
// among those without an open GET stream (a session with a stream is in
// use). false when every session has a stream. Callers hold ls.mu.
func (ls *legacySessions) makeRoomLocked() bool {
	if ls.max <= 0 || len(ls.m) < ls.max {
		return true
	}
	var oldest *legacyHTTPSession
	for _, hs := range ls.m {
		if hs.streams.Load() == 0 && (oldest == nil || hs.lastUsed.Load() < oldest.lastUsed.Load()) {
			oldest = hs
		}
	}
	if oldest == nil {
		return false
	}
	oldest.Close()
	delete(ls.m, oldest.id)
	return true
}

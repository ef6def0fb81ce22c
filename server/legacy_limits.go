package server

// makeRoomLocked makes room for one more legacy HTTP session under
// Limits.MaxLegacySessions: at the cap it ends the session idle the longest
// (legacyHTTPSession.idle: no request in flight and no open GET stream;
// idle since its last request ended). false when every session is in use.
// Callers hold ls.mu.
func (ls *legacySessions) makeRoomLocked() bool {
	if ls.max <= 0 || len(ls.m) < ls.max {
		return true
	}
	var oldest *legacyHTTPSession
	for _, hs := range ls.m {
		if hs.idle() && (oldest == nil || hs.lastUsed.Load() < oldest.lastUsed.Load()) {
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

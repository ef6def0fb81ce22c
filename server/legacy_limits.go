package server

// Limits.MaxLegacySessions and Limits.MaxLegacySessionsPerClient: the
// sessions one client holds are counted (perClient), so that a client at
// its own cap ends its own session idle the longest, and a full server
// ends an idle session of the client holding the most sessions, never one
// of a client holding fewer while such a client has an idle session.

// makeRoomLocked makes room for one more legacy HTTP session of client. A
// client at Limits.MaxLegacySessionsPerClient ends its own session idle
// the longest; at Limits.MaxLegacySessions the server ends the idle
// session of the client holding the most sessions, the one idle the
// longest among that client's (legacyHTTPSession.idle: no request in
// flight and no open GET stream; idle since its last request ended).
// It returns the limit that refuses the session, "" when there is room.
// Callers hold ls.mu.
func (ls *legacySessions) makeRoomLocked(client string) string {
	if ls.perClientMax > 0 && client != "" && ls.perClient[client] >= ls.perClientMax {
		victim := ls.idlestLocked(func(hs *legacyHTTPSession) bool { return hs.client == client })
		if victim == nil {
			return "Limits.MaxLegacySessionsPerClient"
		}
		ls.endLocked(victim)
	}
	if ls.max <= 0 || len(ls.m) < ls.max {
		return ""
	}
	most := -1
	for _, hs := range ls.m {
		if hs.idle() {
			most = max(most, ls.perClient[hs.client])
		}
	}
	victim := ls.idlestLocked(func(hs *legacyHTTPSession) bool { return ls.perClient[hs.client] == most })
	if victim == nil {
		return "Limits.MaxLegacySessions"
	}
	ls.endLocked(victim)
	return ""
}

// idlestLocked returns the idle session of which is idle the longest, nil
// when none is. Callers hold ls.mu.
func (ls *legacySessions) idlestLocked(of func(*legacyHTTPSession) bool) *legacyHTTPSession {
	var oldest *legacyHTTPSession
	for _, hs := range ls.m {
		if hs.idle() && of(hs) && (oldest == nil || hs.lastUsed.Load() < oldest.lastUsed.Load()) {
			oldest = hs
		}
	}
	return oldest
}

// putLocked registers hs and counts it against its client. Callers hold
// ls.mu.
func (ls *legacySessions) putLocked(hs *legacyHTTPSession) {
	if ls.m == nil {
		ls.m = map[string]*legacyHTTPSession{}
		ls.perClient = map[string]int{}
	}
	ls.m[hs.id] = hs
	ls.perClient[hs.client]++
}

// dropLocked forgets hs, if registered, and its count. Callers hold ls.mu.
func (ls *legacySessions) dropLocked(hs *legacyHTTPSession) {
	if ls.m[hs.id] != hs {
		return
	}
	delete(ls.m, hs.id)
	if n := ls.perClient[hs.client] - 1; n > 0 {
		ls.perClient[hs.client] = n
	} else {
		delete(ls.perClient, hs.client)
	}
}

// endLocked closes hs and forgets it. Callers hold ls.mu.
func (ls *legacySessions) endLocked(hs *legacyHTTPSession) {
	hs.Close()
	ls.dropLocked(hs)
}

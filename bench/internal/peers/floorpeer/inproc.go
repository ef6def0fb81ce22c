package floorpeer

// InProcess is the raw floor's in-memory path: scan the id, append the
// canned reply into a reused buffer.
type InProcess struct{}

// Name describes the path.
func (InProcess) Name() string { return "floor AppendReply (byte scan)" }

// Setup returns the call; the returned slice is reused by the next call.
func (InProcess) Setup() (func([]byte) ([]byte, error), func(), error) {
	var buf []byte
	call := func(req []byte) ([]byte, error) {
		buf = AppendReply(buf[:0], req)
		return buf, nil
	}
	return call, func() {}, nil
}

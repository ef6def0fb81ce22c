package floorpeer

// InProcess is the floor's in-memory path: decode the request, append the
// fixed reply into a reused buffer.
type InProcess struct{}

// Name describes the path.
func (InProcess) Name() string { return "floor AppendReply" }

// Setup returns the call; the returned slice is reused by the next call.
func (InProcess) Setup() (func([]byte) ([]byte, error), func(), error) {
	var buf []byte
	call := func(req []byte) ([]byte, error) {
		var err error
		buf, err = AppendReply(buf[:0], req)
		return buf, err
	}
	return call, func() {}, nil
}

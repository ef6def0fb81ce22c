package httpwire

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// pieces returns data in reads whose sizes cycle through sizes (scaled so
// that a few reads cross a 64 KiB chunk), the last one with io.EOF when
// withEOF, then err (io.EOF if nil).
type pieces struct {
	data    []byte
	sizes   []byte
	k       int
	withEOF bool
	err     error
}

func (r *pieces) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		return 0, io.EOF
	}
	n := len(p)
	if len(r.sizes) > 0 {
		s := int(r.sizes[r.k%len(r.sizes)])
		r.k++
		n = min(n, 1+s*s*3) // 1 B to about 190 KiB
	}
	n = copy(p[:n], r.data)
	r.data = r.data[n:]
	if len(r.data) == 0 && r.withEOF && r.err == nil {
		return n, io.EOF
	}
	return n, nil
}

var errPieces = errors.New("pieces: connection reset")

// FuzzReadSized compares readSized with reading the declared length into
// one buffer with io.ReadFull (what a body of known length must give): the
// same bytes, or an error when the body is shorter than declared or the
// read fails, for declared lengths on both sides of the first buffer and
// of the chunks, bodies shorter, equal and longer than declared, and reads
// split at fuzzed sizes.
func FuzzReadSized(f *testing.F) {
	f.Add(uint32(100), int16(0), []byte{}, false, false)
	f.Add(uint32(64<<10+1), int16(0), []byte{200, 3}, true, false)
	f.Add(uint32(3<<16), int16(-1), []byte{255}, false, false)
	f.Add(uint32(5<<16), int16(7), []byte{1, 90, 255}, true, true)
	f.Fuzz(func(t *testing.T, declared uint32, extra int16, sizes []byte, withEOF, fail bool) {
		n := int(declared % (4<<16 + 1000))
		if n == 0 {
			return // ReadBody reads an empty declared body with io.ReadAll
		}
		have := max(n+int(extra), 0)
		data := bytes.Repeat([]byte("0123456789abcdefghijklmnopqrstu\n"), have/32+1)[:have]
		var err error
		if fail {
			err = errPieces
		}
		got, gerr := readSized(&pieces{data: data, sizes: sizes, withEOF: withEOF, err: err}, int64(n))
		want := make([]byte, n)
		_, werr := io.ReadFull(&pieces{data: data, sizes: sizes, withEOF: withEOF, err: err}, want)
		if werr == io.EOF {
			werr = io.ErrUnexpectedEOF
		}
		if gerr != werr {
			t.Fatalf("n=%d have=%d: error %v, want %v", n, have, gerr, werr)
		}
		if werr == nil && (!bytes.Equal(got, want) || cap(got) != n) {
			t.Fatalf("n=%d have=%d: %d bytes (cap %d) differ from the body", n, have, len(got), cap(got))
		}
	})
}

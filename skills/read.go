package skills

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
)

// errOverLimit is readAtMost's error for a file longer than its limit.
var errOverLimit = errors.New("over the limit")

// fileReader reads the files of an FS for load, at most as many bytes of a
// file as the skill reading it has left of MaxBytesPerSkill, so that a huge
// or endless file costs no more than the limit. A file read whole is kept
// for the other skills holding it (an enclosing skill's nested one).
type fileReader struct {
	fsys     fs.FS
	contents map[string][]byte
}

// readAtMost returns the content of file p, or errOverLimit once it has
// more than limit bytes.
func (r *fileReader) readAtMost(p string, limit int64) ([]byte, error) {
	if b, ok := r.contents[p]; ok {
		if int64(len(b)) > limit {
			return nil, errOverLimit
		}
		return b, nil
	}
	f, err := r.fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if st, err := f.Stat(); err == nil && st.Size() > limit {
		return nil, errOverLimit
	} else if err == nil && st.Size() > 0 {
		buf.Grow(int(st.Size()) + 1) // the +1 sees EOF without growing
	}
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > limit {
		return nil, errOverLimit
	}
	r.contents[p] = buf.Bytes()
	return buf.Bytes(), nil
}

package jsonrpc

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// pieceReader returns data in pieces whose sizes cycle through sizes
// (each at least 1), then err (io.EOF if nil).
type pieceReader struct {
	data  []byte
	sizes []byte
	k     int
	err   error
}

func (r *pieceReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		return 0, io.EOF
	}
	n := len(p)
	if len(r.sizes) > 0 {
		n = min(n, int(r.sizes[r.k%len(r.sizes)])%64+1)
		r.k++
	}
	n = copy(p[:min(n, len(p))], r.data)
	r.data = r.data[n:]
	return n, nil
}

var errPiece = errors.New("piece reader failed")

// FuzzLineReaderChunks compares LineReader, which gathers long lines in
// chunks, with the reader it replaced (a buffer grown by doubling,
// oldLineReader), over small read buffers and chunk sizes so that lines
// cross many buffer and chunk boundaries, reads split at fuzzed sizes, a
// fuzzed line limit, and an input that may end in a read error: every Next
// gives the same line or error and leaves the same input buffered. Lines
// the caller takes keep their bytes to the end, and every long line is
// assembled at its exact length. LineBuffered, called before some of the
// Nexts, changes none of this.
func FuzzLineReaderChunks(f *testing.F) {
	f.Add([]byte("a\nb\r\n\n c\r\n"), []byte{3, 7}, uint8(4), uint8(0), uint16(100), uint8(0xff), false)
	f.Add([]byte(strings.Repeat("x", 70)+"\r\n"+strings.Repeat("y", 33)+"\r"+"\n\n"), []byte{0}, uint8(0), uint8(5), uint16(60), uint8(0x55), false)
	f.Add([]byte(strings.Repeat("z", 100)+"\n"+strings.Repeat("w", 40)+"\r"), []byte{15, 1, 63}, uint8(16), uint8(16), uint16(0), uint8(0), true)
	f.Add([]byte(strings.Repeat("q", 49)+"\r\n"+strings.Repeat("q", 50)+"\r\n"+strings.Repeat("q", 51)+"\n ok"), []byte{}, uint8(1), uint8(7), uint16(50), uint8(0xaa), false)
	f.Fuzz(func(t *testing.T, data, sizes []byte, buf, chunk uint8, max uint16, take uint8, fail bool) {
		bufSize := 16 + int(buf)%48 // bufio's least size is 16
		chunkSize := 1 + int(chunk)%40
		limit := int(max)
		var err error
		if fail {
			err = errPiece
		}
		newer := newLineReader(&pieceReader{data: data, sizes: sizes, err: err}, limit, bufSize, chunkSize)
		older := newOldLineReader(&pieceReader{data: data, sizes: sizes, err: err}, limit, bufSize)
		type taken struct{ line, want []byte }
		var kept []taken
		for i := 0; ; i++ {
			if i > len(data)+2 {
				t.Fatal("LineReader does not terminate")
			}
			if take>>((i+4)%8)&1 == 1 {
				// LineBuffered notes the line it finds for Next, which
				// must still read it as without.
				newer.LineBuffered()
			}
			got, gerr := newer.Next()
			want, werr := older.Next()
			if gerr != werr || !bytes.Equal(got, want) {
				t.Fatalf("line %d: got %q, %v; want %q, %v", i, got, gerr, want, werr)
			}
			if newer.Buffered() != older.br.Buffered() {
				t.Fatalf("line %d: %d bytes buffered, want %d", i, newer.Buffered(), older.br.Buffered())
			}
			if gerr != nil {
				if gerr == ErrMessageTooLarge {
					continue
				}
				break
			}
			if newer.parts.Len() != 0 {
				t.Fatalf("line %d: %d bytes still gathered after it", i, newer.parts.Len())
			}
			long := len(newer.long) > 0 && &got[0] == &newer.long[0]
			if long && len(newer.long) > len(got)+2 {
				t.Fatalf("line %d: assembled in %d bytes for a line of %d", i, len(newer.long), len(got))
			}
			if take>>(i%8)&1 == 1 {
				if newer.Take(got) != long {
					t.Fatalf("line %d: Take = %v, want %v", i, !long, long)
				}
				if long {
					kept = append(kept, taken{got, bytes.Clone(got)})
					if newer.Take(got) {
						t.Fatalf("line %d taken twice", i)
					}
				}
			}
		}
		for i, k := range kept {
			if !bytes.Equal(k.line, k.want) {
				t.Fatalf("taken line %d changed to %q, want %q", i, k.line, k.want)
			}
		}
	})
}

// TestLineReaderReusesUntaken: a long line not taken is assembled in the
// buffer of the one before it when it fits, and in a new one when it does
// not; a taken one is never written again.
func TestLineReaderReusesUntaken(t *testing.T) {
	a := strings.Repeat("a", 300)
	b := strings.Repeat("b", 200)
	c := strings.Repeat("c", 400)
	lr := newLineReader(strings.NewReader(a+"\n"+b+"\n"+c+"\n"+b+"\n"), 0, 16, 7)
	first, _ := lr.Next()
	second, _ := lr.Next()
	if string(second) != b || &first[0] != &second[0] {
		t.Fatalf("the second long line was not assembled in the first one's buffer")
	}
	third, _ := lr.Next()
	if string(third) != c || &third[0] == &second[0] || cap(third) != len(c)+1 {
		t.Fatalf("the third, longer line: %d bytes, cap %d", len(third), cap(third))
	}
	if !lr.Take(third) {
		t.Fatal("Take of the third line = false")
	}
	fourth, _ := lr.Next()
	if string(fourth) != b || &fourth[0] == &third[0] || string(third) != c {
		t.Fatal("the line after a taken one reused its buffer")
	}
}

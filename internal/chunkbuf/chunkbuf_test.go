package chunkbuf

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// Every way of filling a Buffer (Write, ReadSome) gives back exactly the
// bytes written, through Join, CopyTo and At, at every length around
// chunk boundaries, for pooled and own chunks; Reset empties it.
func TestBuffer(t *testing.T) {
	for _, size := range []int{0, 1, 3, 16, Size} {
		c := size
		if c == 0 {
			c = Size
		}
		for _, n := range []int{0, 1, c - 1, c, c + 1, 2*c - 1, 2 * c, 3*c + 2} {
			data := []byte(strings.Repeat("abcdefghij", n/10+1)[:n])
			for _, how := range []string{"write", "write-pieces", "read"} {
				b := New(size)
				switch how {
				case "write":
					b.Write(data)
				case "write-pieces":
					for i := 0; i < n; i += 5 {
						b.Write(data[i:min(i+5, n)])
					}
				case "read":
					r := iotest.HalfReader(bytes.NewReader(data))
					for b.Len() < n {
						if _, err := b.ReadSome(r, 7+n-b.Len()); err != nil && err != io.EOF {
							t.Fatal(err)
						}
					}
				}
				if b.Len() != n {
					t.Fatalf("size %d n %d %s: Len %d", size, n, how, b.Len())
				}
				for i := range n {
					if b.At(i) != data[i] {
						t.Fatalf("size %d n %d %s: At(%d) = %q", size, n, how, i, b.At(i))
					}
				}
				short := make([]byte, n/2)
				if k := b.CopyTo(short); k != n/2 || !bytes.Equal(short, data[:n/2]) {
					t.Fatalf("size %d n %d %s: CopyTo of %d copied %d", size, n, how, n/2, k)
				}
				out := b.Join([]byte("tail"))
				if string(out) != string(data)+"tail" || (n > 0 && cap(out) != n+4) {
					t.Fatalf("size %d n %d %s: Join gave %d bytes, cap %d", size, n, how, len(out), cap(out))
				}
				if b.Len() != 0 {
					t.Fatalf("Len %d after Join", b.Len())
				}
				b.Write(data)
				b.Reset()
				if b.Len() != 0 || len(b.chunks) != 0 {
					t.Fatalf("Reset left %d bytes in %d chunks", b.Len(), len(b.chunks))
				}
			}
		}
	}
}

// ReadSome reads at most its limit and passes the reader's error on.
func TestBufferReadSomeLimit(t *testing.T) {
	b := New(0)
	m, err := b.ReadSome(strings.NewReader("0123456789"), 4)
	if m != 4 || err != nil || b.Len() != 4 {
		t.Fatalf("read %d, %v, Len %d", m, err, b.Len())
	}
	boom := iotest.ErrReader(io.ErrClosedPipe)
	if _, err := b.ReadSome(boom, 10); err != io.ErrClosedPipe {
		t.Fatalf("error %v", err)
	}
}

// Filling and emptying a Buffer of pooled chunks over and over allocates
// nothing once the pool holds them.
func TestBufferReuse(t *testing.T) {
	data := bytes.Repeat([]byte{'x'}, 4*Size+10)
	var b Buffer
	b.Write(data)
	b.Reset()
	if n := testing.AllocsPerRun(20, func() {
		b.Write(data)
		b.Reset()
	}); n > 0 {
		t.Errorf("%v allocations per fill", n)
	}
}

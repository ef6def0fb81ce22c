// Package chunkbuf accumulates a message of unknown length in fixed-size
// chunks and assembles it once, at its exact size.
//
// A buffer grown by doubling touches two to four times a message's length
// by the time it holds the message (64 KiB + 128 KiB + … + the last
// doubling), holds 1.5 to 3 times it at once (the last two buffers during
// the last copy) and may end nearly twice as large as the message. A Buffer touches the message's length in chunks
// and the one assembled copy, and holds at most those two.
//
// Few chunks are pooled: at most poolChunks (1 MiB), so that messages up
// to that size cost no chunk allocations, while the chunks of a larger one
// become garbage as soon as it is assembled. A pool holding every chunk
// (sync.Pool) would keep them reachable between messages: the collector
// counts them as live, which raises its heap goal by twice their size and
// the process's peak memory with it (measured against this pool, one
// round of bench/: +4 to +39 MiB of peak RSS on the 10 MB argument rows).
package chunkbuf

import (
	"bytes"
	"io"
)

// Size is the size of a chunk: 64 KiB.
const Size = 64 << 10

// poolChunks is the number of chunks kept for reuse.
const poolChunks = 16

var pool = make(chan *[Size]byte, poolChunks)

// get returns a pooled chunk or a new one.
func get() *[Size]byte {
	select {
	case c := <-pool:
		return c
	default:
		return new([Size]byte)
	}
}

// put keeps c for reuse if the pool has room, else drops it.
func put(c *[Size]byte) {
	select {
	case pool <- c:
	default:
	}
}

// Buffer holds bytes in chunks. The zero value is an empty Buffer with
// chunks of Size bytes. A Buffer is not safe for concurrent use.
type Buffer struct {
	chunkSize int      // chunk size; 0 means Size (pooled)
	chunks    [][]byte // each full but the last, which has room up to its cap
	n         int      // bytes held
}

// New returns an empty Buffer whose chunks have size bytes; size <= 0 or
// Size gives the chunks of the zero Buffer (pooled), any other size chunks
// of their own (tests use small ones to cross many chunk boundaries).
func New(size int) *Buffer {
	if size == Size {
		size = 0
	}
	return &Buffer{chunkSize: max(size, 0)}
}

// Len is the number of bytes held.
func (b *Buffer) Len() int { return b.n }

// room returns the free space of the last chunk, adding a chunk if it is
// full or there is none.
func (b *Buffer) room() []byte {
	if k := len(b.chunks); k > 0 {
		if last := b.chunks[k-1]; len(last) < cap(last) {
			return last[len(last):cap(last)]
		}
	}
	var c []byte
	if b.chunkSize == 0 {
		c = get()[:0]
	} else {
		c = make([]byte, 0, b.chunkSize)
	}
	b.chunks = append(b.chunks, c)
	return c[:cap(c)]
}

// grew records m bytes written into the last chunk's room.
func (b *Buffer) grew(m int) {
	last := &b.chunks[len(b.chunks)-1]
	*last = (*last)[:len(*last)+m]
	b.n += m
}

// Write appends p; it never fails.
func (b *Buffer) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		m := copy(b.room(), p)
		b.grew(m)
		p = p[m:]
	}
	return total, nil
}

// ReadSome makes one Read call from r into the last chunk's free space, at
// most limit bytes (limit > 0), and returns what it read and Read's error.
// It does not read to the end, unlike io.ReaderFrom.
func (b *Buffer) ReadSome(r io.Reader, limit int) (int, error) {
	room := b.room()
	if len(room) > limit {
		room = room[:limit]
	}
	m, err := r.Read(room)
	b.grew(m)
	return m, err
}

// CopyTo copies the bytes held into dst, as many as fit, and returns how
// many it copied.
func (b *Buffer) CopyTo(dst []byte) int {
	k := 0
	for _, c := range b.chunks {
		if k == len(dst) {
			break
		}
		k += copy(dst[k:], c)
	}
	return k
}

// Join returns the bytes held followed by tail in one new slice, of
// capacity exactly their length when b holds any (bytes.Join: the memory is
// not zeroed before the copy), and empties b.
func (b *Buffer) Join(tail []byte) []byte {
	parts := append(b.chunks, tail)
	out := bytes.Join(parts, nil)
	parts[len(parts)-1] = nil // do not keep tail
	b.chunks = parts[:len(parts)-1]
	b.Reset()
	return out
}

// Reset empties b and hands its chunks back to the pool (those it has
// room for).
func (b *Buffer) Reset() {
	for i, c := range b.chunks {
		if b.chunkSize == 0 {
			put((*[Size]byte)(c[:Size]))
		}
		b.chunks[i] = nil
	}
	b.chunks = b.chunks[:0]
	b.n = 0
}

// At returns the byte at offset i (0 <= i < Len()).
func (b *Buffer) At(i int) byte {
	size := cap(b.chunks[0])
	return b.chunks[i/size][i%size]
}

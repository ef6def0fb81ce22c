package jsonrpc

import (
	"github.com/mcpgen/mcpgen/internal/chunkbuf"
	"github.com/mcpgen/mcpgen/internal/jsonscan"

	"bufio"
	"bytes"
	"errors"
	"io"
)

// DefaultMaxMessageSize is the line size limit NewLineReader uses when given
// a non-positive maximum: 16 MiB.
const DefaultMaxMessageSize = 16 << 20

// readBufferSize is the size of the bufio buffer. Lines that fit in it are
// returned without copying.
const readBufferSize = 64 << 10

// ErrMessageTooLarge is returned by LineReader.Next for a line longer than
// the reader's maximum. It affects only that line: the reader has already
// skipped to the next newline and the following Next call continues there.
var ErrMessageTooLarge = errors.New("jsonrpc: message exceeds maximum size")

// LineReader splits a byte stream into newline-delimited messages, as used
// by the MCP stdio transport.
//
// Lines end at '\n'; one '\r' before it is removed too. Lines that are empty
// or contain only JSON whitespace are skipped. A final line without a
// trailing newline is returned like any other. The size limit applies to a
// line's content without its terminator; an over-long line is discarded
// chunk by chunk (never buffered whole) and reported as ErrMessageTooLarge.
//
// Lines that fit in the 64 KiB read buffer are returned without copying or
// allocating. A longer line is gathered in 64 KiB chunks (internal/chunkbuf)
// and assembled once in a buffer of its exact length, which the caller may
// Take; one not taken is kept and reused for the next long line that fits
// in it. A 10 MB line thus touches about 20 MB (the chunks, garbage once it
// is assembled, and the line), where a buffer grown by doubling touched
// 64 KiB + … + 16 MiB ≈ 32 MiB and held up to 24 MiB at once.
//
// A LineReader is not safe for concurrent use.
type LineReader struct {
	br    *bufio.Reader
	max   int
	parts *chunkbuf.Buffer // a long line's bytes before its end is read
	long  []byte           // the last long line assembled, while not taken; reused
	// ready is the length, with its '\n', of the line at the start of the
	// buffer when LineBuffered found it there (0: not known), so that
	// readLine takes it without looking for its end again.
	ready int
}

// NewLineReader returns a LineReader reading from r that accepts lines of at
// most max bytes (DefaultMaxMessageSize if max <= 0).
func NewLineReader(r io.Reader, max int) *LineReader {
	return newLineReader(r, max, readBufferSize, chunkbuf.Size)
}

// newLineReader is NewLineReader with the read buffer and chunk sizes
// given (tests use small ones to cross many boundaries).
func newLineReader(r io.Reader, max, bufSize, chunkSize int) *LineReader {
	if max <= 0 {
		max = DefaultMaxMessageSize
	}
	return &LineReader{br: bufio.NewReaderSize(r, bufSize), max: max, parts: chunkbuf.New(chunkSize)}
}

// Next returns the next non-empty line without its line terminator.
//
// The returned slice is only valid until the next call to Next: it points
// into the reader's internal buffers, which are reused. Copy it (for example
// with bytes.Clone) or Take it before handing it to another goroutine or
// decoding a message that must outlive the next read.
//
// At the end of the stream Next returns io.EOF. For an over-long line it
// returns ErrMessageTooLarge and reading may continue. Any other error comes
// from the underlying reader; a partial line read before such an error is
// dropped.
func (lr *LineReader) Next() ([]byte, error) {
	for {
		line, err := lr.readLine()
		if err != nil {
			return nil, err
		}
		if len(jsonscan.TrimSpace(line)) == 0 {
			continue
		}
		return line, nil
	}
}

// readLine reads one line (possibly empty) and strips its terminator.
func (lr *LineReader) readLine() ([]byte, error) {
	if n := lr.ready; n > 0 {
		// LineBuffered found this line's end: its bytes are buffered.
		lr.ready = 0
		chunk, _ := lr.br.Peek(n)
		lr.br.Discard(n)
		line := trimEOL(chunk)
		if len(line) > lr.max {
			return nil, ErrMessageTooLarge
		}
		return line, nil
	}
	lr.parts.Reset()
	tooLarge := false
	for {
		chunk, err := lr.br.ReadSlice('\n')
		switch {
		case err == nil:
			// chunk ends with '\n'.
		case err == bufio.ErrBufferFull:
			// A long line: keep it (if it may still fit) and read on.
			if !tooLarge {
				// Allow one extra byte for a '\r' that may precede '\n'.
				if lr.parts.Len()+len(chunk) > lr.max+1 {
					tooLarge = true
					lr.parts.Reset()
				} else {
					lr.parts.Write(chunk)
				}
			}
			continue
		case err == io.EOF:
			if len(chunk) == 0 && lr.parts.Len() == 0 && !tooLarge {
				return nil, io.EOF
			}
			// The final line has no newline; return it now, EOF comes next.
		default:
			lr.parts.Reset()
			return nil, err
		}
		if tooLarge {
			return nil, ErrMessageTooLarge
		}
		if lr.parts.Len() == 0 {
			line := trimEOL(chunk)
			if len(line) > lr.max {
				return nil, ErrMessageTooLarge
			}
			return line, nil
		}
		return lr.assemble(chunk)
	}
}

// assemble joins a long line's chunks and its last piece, tail, into one
// buffer of the line's length (the kept one if it fits, else a new one),
// after checking the length without the terminator against the limit.
func (lr *LineReader) assemble(tail []byte) ([]byte, error) {
	p := lr.parts.Len()
	at := func(i int) byte {
		if i >= p {
			return tail[i-p]
		}
		return lr.parts.At(i)
	}
	// trimEOL over chunks and tail: a trailing '\n', then a trailing '\r'.
	n := p + len(tail)
	content := n
	if content > 0 && at(content-1) == '\n' {
		content--
	}
	if content > 0 && at(content-1) == '\r' {
		content--
	}
	if content > lr.max {
		lr.parts.Reset()
		return nil, ErrMessageTooLarge
	}
	var line []byte
	if cap(lr.long) >= n {
		line = lr.long[:n]
		copy(line[lr.parts.CopyTo(line):], tail)
		lr.parts.Reset()
	} else {
		line = lr.parts.Join(tail)
	}
	lr.long = line
	return line[:content], nil
}

// trimEOL removes a trailing "\n" and then a trailing "\r".
func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

// LineBuffered reports whether the next Next call returns without reading
// from the underlying reader: a whole non-blank line is already buffered.
// A transport that reads many lines per read uses it to hand on what it has
// before it would wait for more input.
func (lr *LineReader) LineBuffered() bool {
	n := lr.br.Buffered()
	if n == 0 {
		return false
	}
	buf, _ := lr.br.Peek(n)
	i := 0
	for i < len(buf) && jsonscan.IsSpace(buf[i]) {
		i++
	}
	j := bytes.IndexByte(buf[i:], '\n')
	if i == 0 && j >= 0 {
		lr.ready = j + 1 // readLine's line: the buffer starts with it
	}
	return j >= 0
}

// Buffered is the number of input bytes read but not yet returned by Next.
func (lr *LineReader) Buffered() int { return lr.br.Buffered() }

// Take hands the caller the line Next just returned, when that line was
// assembled in a buffer of its own (one longer than the 64 KiB read
// buffer): the reader lets go of the buffer, so the caller may keep the
// line without copying it, and the next long line is assembled in a new
// one. It reports false for a line in the read buffer, which the caller
// must still copy.
func (lr *LineReader) Take(line []byte) bool {
	if len(line) == 0 || len(lr.long) == 0 || &line[0] != &lr.long[0] {
		return false
	}
	lr.long = nil
	return true
}

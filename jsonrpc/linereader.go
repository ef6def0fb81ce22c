package jsonrpc

import (
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
// allocating; longer lines are assembled in a buffer that is kept for reuse
// and may grow to the size limit.
//
// A LineReader is not safe for concurrent use.
type LineReader struct {
	br  *bufio.Reader
	max int
	acc []byte // accumulates lines longer than the bufio buffer; reused
}

// NewLineReader returns a LineReader reading from r that accepts lines of at
// most max bytes (DefaultMaxMessageSize if max <= 0).
func NewLineReader(r io.Reader, max int) *LineReader {
	if max <= 0 {
		max = DefaultMaxMessageSize
	}
	return &LineReader{br: bufio.NewReaderSize(r, readBufferSize), max: max}
}

// Next returns the next non-empty line without its line terminator.
//
// The returned slice is only valid until the next call to Next: it points
// into the reader's internal buffers, which are reused. Copy it (for example
// with bytes.Clone) before handing it to another goroutine or decoding a
// message that must outlive the next read.
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
	lr.acc = lr.acc[:0]
	usingAcc := false
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
				if len(lr.acc)+len(chunk) > lr.max+1 {
					tooLarge = true
					lr.acc = lr.acc[:0]
				} else {
					lr.acc = append(lr.acc, chunk...)
					usingAcc = true
				}
			}
			continue
		case err == io.EOF:
			if len(chunk) == 0 && !usingAcc && !tooLarge {
				return nil, io.EOF
			}
			// The final line has no newline; return it now, EOF comes next.
		default:
			return nil, err
		}
		if tooLarge {
			return nil, ErrMessageTooLarge
		}
		line := chunk
		if usingAcc {
			lr.acc = append(lr.acc, chunk...)
			line = lr.acc
		}
		line = trimEOL(line)
		if len(line) > lr.max {
			return nil, ErrMessageTooLarge
		}
		return line, nil
	}
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
	return bytes.IndexByte(buf[i:], '\n') >= 0
}

// Buffered is the number of input bytes read but not yet returned by Next.
func (lr *LineReader) Buffered() int { return lr.br.Buffered() }

// Take hands the caller the line Next just returned, when that line was
// assembled in the reader's buffer for long lines (one longer than the
// 64 KiB read buffer): the reader lets go of the buffer, so the caller may
// keep the line without copying it, and the next long line is assembled in
// a new one. It reports false for a line in the read buffer, which the
// caller must still copy.
func (lr *LineReader) Take(line []byte) bool {
	if len(line) == 0 || len(lr.acc) == 0 || &line[0] != &lr.acc[0] {
		return false
	}
	lr.acc = nil
	return true
}

package jsonrpc

import (
	"bufio"
	"io"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// oldLineReader is LineReader as it was before long lines were gathered in
// chunks (a buffer grown by doubling, kept for reuse): the reference
// FuzzLineReaderChunks compares the chunked reader with.
type oldLineReader struct {
	br  *bufio.Reader
	max int
	acc []byte
}

func newOldLineReader(r io.Reader, max, bufSize int) *oldLineReader {
	if max <= 0 {
		max = DefaultMaxMessageSize
	}
	return &oldLineReader{br: bufio.NewReaderSize(r, bufSize), max: max}
}

func (lr *oldLineReader) Next() ([]byte, error) {
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

func (lr *oldLineReader) readLine() ([]byte, error) {
	lr.acc = lr.acc[:0]
	usingAcc := false
	tooLarge := false
	for {
		chunk, err := lr.br.ReadSlice('\n')
		switch {
		case err == nil:
		case err == bufio.ErrBufferFull:
			if !tooLarge {
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

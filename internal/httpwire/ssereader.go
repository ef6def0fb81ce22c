package httpwire

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrEventTooLarge reports an SSE event (or line) larger than the reader's
// limit.
var ErrEventTooLarge = errors.New("SSE event exceeds the size limit")

// SSEReader reads the events of a text/event-stream body (the WHATWG HTML
// "event stream" format): "data:" lines of one event joined with "\n",
// comment lines (":" first) ignored, the event dispatched at a blank line;
// lines end with CRLF, LF or CR alone.
// Only the data of "message" events (the default type) is returned; the
// "event", "id" and "retry" fields are read and dropped.
type SSEReader struct {
	r       *bufio.Reader
	max     int
	started bool // the stream's first bytes were checked for a BOM
	afterCR bool // the last line ended with CR: a LF next belongs to it
}

// NewSSEReader reads events from r; an event's data may be at most max bytes.
func NewSSEReader(r io.Reader, max int) *SSEReader {
	return &SSEReader{r: bufio.NewReaderSize(r, 4096), max: max}
}

// Next returns the data of the next non-empty message event. At the end of
// the stream it returns io.EOF (an unterminated last event is dropped, as
// the format requires); a read error or an oversized event is returned as is.
func (s *SSEReader) Next() ([]byte, error) {
	for {
		event, data, err := s.NextEvent()
		if err != nil {
			return nil, err
		}
		if event == "message" {
			return data, nil
		}
	}
}

// NextEvent returns the type ("message" when the event names none) and
// data of the next event that has data, whatever its type: the legacy
// HTTP+SSE transport's first event is "endpoint". Errors are as for Next.
func (s *SSEReader) NextEvent() (event string, data []byte, err error) {
	event, data, err = s.event()
	if err == nil && event == "" {
		event = "message"
	}
	return event, data, err
}

func (s *SSEReader) event() (string, []byte, error) {
	var data []byte
	hasData := false
	event := ""
	for {
		line, err := s.line()
		if err != nil {
			if err == io.EOF && len(line) == 0 {
				return "", nil, io.EOF
			}
			if err != io.EOF {
				return "", nil, err
			}
		}
		if len(line) == 0 {
			if err == io.EOF {
				return "", nil, io.EOF
			}
			if hasData {
				return event, data, nil
			}
			data, hasData, event = data[:0], false, ""
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "data":
			if hasData {
				data = append(data, '\n')
			}
			if len(data)+len(value) > s.max {
				return "", nil, fmt.Errorf("%w (%d bytes)", ErrEventTooLarge, s.max)
			}
			data = append(data, value...)
			hasData = true
		case "event":
			event = string(value)
		}
		if err == io.EOF {
			return "", nil, io.EOF
		}
	}
}

// line reads one line without its CR, LF or CRLF ending (the format
// allows all three). A CR ends the line at once — waiting to see whether
// a LF follows would hold an event a server ended with CR alone — and a
// LF that then opens the next read is the rest of that ending. A UTF-8
// BOM that opens the stream is dropped, as the format says. A line longer
// than the limit is ErrEventTooLarge; at the end of the stream the
// unterminated rest is returned with io.EOF.
func (s *SSEReader) line() ([]byte, error) {
	if !s.started {
		s.started = true
		// Peek(3) only after a first 0xEF: a shorter opening (a keep-alive
		// comment) is not held until more bytes arrive.
		if b, err := s.r.Peek(1); err == nil && b[0] == utf8BOM[0] {
			if b, err := s.r.Peek(len(utf8BOM)); err == nil && bytes.Equal(b, utf8BOM) {
				_, _ = s.r.Discard(len(utf8BOM))
			}
		}
	}
	if s.afterCR {
		s.afterCR = false
		if b, err := s.r.Peek(1); err == nil && b[0] == '\n' {
			_, _ = s.r.Discard(1)
		}
	}
	var buf []byte
	for {
		chunk, err := s.r.Peek(max(s.r.Buffered(), 1))
		if len(chunk) == 0 {
			return buf, err
		}
		i := lineEnd(chunk)
		n := i
		if i < 0 {
			n = len(chunk)
		}
		if len(buf)+n > s.max+len("data: ") {
			return nil, fmt.Errorf("%w (%d bytes)", ErrEventTooLarge, s.max)
		}
		buf = append(buf, chunk[:n]...)
		if i < 0 {
			_, _ = s.r.Discard(n)
			continue
		}
		s.afterCR = chunk[i] == '\r'
		_, _ = s.r.Discard(i + 1)
		return buf, nil
	}
}

// lineEnd is the index of the first CR or LF in b, or -1 (two IndexByte
// scans: bytes.IndexAny tests byte by byte).
func lineEnd(b []byte) int {
	lf := bytes.IndexByte(b, '\n')
	search := b
	if lf >= 0 {
		search = b[:lf]
	}
	if cr := bytes.IndexByte(search, '\r'); cr >= 0 {
		return cr
	}
	return lf
}

var utf8BOM = []byte("\xEF\xBB\xBF")

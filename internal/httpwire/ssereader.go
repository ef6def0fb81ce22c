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
// comment lines (":" first) ignored, the event dispatched at a blank line.
// Only the data of "message" events (the default type) is returned; the
// "event", "id" and "retry" fields are read and dropped.
type SSEReader struct {
	r   *bufio.Reader
	max int
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

// line reads one line without its CR, LF or CRLF ending.
func (s *SSEReader) line() ([]byte, error) {
	var buf []byte
	for {
		frag, err := s.r.ReadSlice('\n')
		if len(buf)+len(frag) > s.max+2 {
			return nil, fmt.Errorf("%w (%d bytes)", ErrEventTooLarge, s.max)
		}
		buf = append(buf, frag...)
		if err == bufio.ErrBufferFull {
			continue
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		return buf, err
	}
}

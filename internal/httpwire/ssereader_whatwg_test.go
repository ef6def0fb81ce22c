package httpwire

import (
	"errors"
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// whatwgEvent is one event the WHATWG HTML "event stream" interpretation
// dispatches.
type whatwgEvent struct {
	event, data string
}

// whatwgEvents is a direct transcription of the WHATWG HTML parsing rules
// for text/event-stream (§9.2.6 "Interpreting an event stream"), the
// reference SSEReader must agree with: one leading BOM dropped; lines end
// with CRLF, LF or CR; a blank line dispatches the event when its data
// buffer is not empty; ":" lines are comments; "field: value" with one
// leading space of value dropped, a line without ":" a field with an empty
// value; "data" appends value and LF, "event" sets the type; the last LF
// of the data is removed; an event unterminated at the end is dropped.
func whatwgEvents(stream string) []whatwgEvent {
	stream = strings.TrimPrefix(stream, "\uFEFF")
	var lines []string
	for {
		i := strings.IndexAny(stream, "\r\n")
		if i < 0 {
			break // an unterminated last line: never followed by a blank line
		}
		lines = append(lines, stream[:i])
		if stream[i] == '\r' && i+1 < len(stream) && stream[i+1] == '\n' {
			i++
		}
		stream = stream[i+1:]
	}
	var out []whatwgEvent
	data, event := "", ""
	for _, line := range lines {
		if line == "" {
			if data == "" {
				event = ""
				continue
			}
			if event == "" {
				event = "message"
			}
			out = append(out, whatwgEvent{event, strings.TrimSuffix(data, "\n")})
			data, event = "", ""
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value := line, ""
		if i := strings.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], strings.TrimPrefix(line[i+1:], " ")
		}
		switch field {
		case "data":
			data += value + "\n"
		case "event":
			event = value
		}
	}
	return out
}

// FuzzSSEReaderWHATWG is differential: on any valid UTF-8 stream, the
// events SSEReader.NextEvent returns (with a limit the stream cannot
// reach) are exactly those the WHATWG interpretation dispatches, in
// order, fed whole or one byte at a time.
func FuzzSSEReaderWHATWG(f *testing.F) {
	for _, s := range []string{
		"data: x\n\n", "data: a\rdata: b\r\r", "data: a\r\n\r\n", "\uFEFFdata: bom\n\n",
		"event: endpoint\ndata: /m\n\ndata\n\n", "data:\n\n", ": c\n\nid: 1\nretry: 5\ndata:  two\n\n",
		"data: cut", "event: e\n\ndata: x\n\n", "data: a\r\r\ndata: b\n\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, stream string) {
		if !utf8.ValidString(stream) {
			return // the reader passes bytes through; the JSON-RPC decoder refuses invalid UTF-8
		}
		want := whatwgEvents(stream)
		for _, src := range []io.Reader{strings.NewReader(stream), &byteReader{s: stream}} {
			r := NewSSEReader(src, len(stream)+8)
			var got []whatwgEvent
			for {
				ev, data, err := r.NextEvent()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("stream %q: %v", stream, err)
				}
				got = append(got, whatwgEvent{ev, string(data)})
			}
			if len(got) != len(want) {
				t.Fatalf("stream %q: got %q, WHATWG dispatches %q", stream, got, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("stream %q: event %d is %q, WHATWG dispatches %q", stream, i, got[i], want[i])
				}
			}
		}
	})
}

// byteReader yields one byte per Read: line endings split across reads.
type byteReader struct{ s string }

func (b *byteReader) Read(p []byte) (int, error) {
	if len(b.s) == 0 {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = b.s[0]
	b.s = b.s[1:]
	return 1, nil
}

// A server that ends its lines with CR alone (allowed by the format) is
// read event by event, and a CR before a LF read later is one line end.
func TestSSEReaderCRLineEndings(t *testing.T) {
	r := NewSSEReader(&byteReader{s: "data: a\rdata: b\r\rdata: c\r\n\r\n"}, 1024)
	for _, want := range []string{"a\nb", "c"} {
		got, err := r.Next()
		if err != nil || string(got) != want {
			t.Fatalf("Next = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("want io.EOF, got %v", err)
	}
}

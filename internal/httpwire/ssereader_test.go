package httpwire

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestSSEReaderEvents(t *testing.T) {
	in := ": keep-alive\r\n\r\nevent: message\ndata: {\"a\":\ndata: 1}\nid: 7\n\nevent: other\ndata: x\n\ndata:  spaced\r\n\r\ndata: cut"
	r := NewSSEReader(strings.NewReader(in), 1024)
	want := []string{"{\"a\":\n1}", " spaced"}
	for _, w := range want {
		got, err := r.Next()
		if err != nil || string(got) != w {
			t.Fatalf("Next = %q, %v; want %q", got, err, w)
		}
	}
	if got, err := r.Next(); err != io.EOF {
		t.Fatalf("after the last event: %q, %v; want io.EOF (the unterminated event is dropped)", got, err)
	}
}

func TestSSEReaderLimit(t *testing.T) {
	r := NewSSEReader(strings.NewReader("data: "+strings.Repeat("x", 100)+"\n\n"), 50)
	if _, err := r.Next(); !errors.Is(err, ErrEventTooLarge) {
		t.Fatalf("err = %v, want ErrEventTooLarge", err)
	}
	r = NewSSEReader(strings.NewReader(strings.Repeat("data: 123456789\n", 10)+"\n"), 50)
	if _, err := r.Next(); !errors.Is(err, ErrEventTooLarge) {
		t.Fatalf("many data lines: err = %v, want ErrEventTooLarge", err)
	}
}

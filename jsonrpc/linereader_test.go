package jsonrpc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll drains lr, recording each line (copied) or "ERR:<error>".
func readAll(t *testing.T, lr *LineReader) []string {
	t.Helper()
	var out []string
	for i := 0; ; i++ {
		if i > 10000 {
			t.Fatal("LineReader does not terminate")
		}
		line, err := lr.Next()
		switch {
		case err == io.EOF:
			return out
		case errors.Is(err, ErrMessageTooLarge):
			out = append(out, "ERR:too large")
		case err != nil:
			out = append(out, "ERR:"+err.Error())
			return out
		default:
			out = append(out, string(line))
		}
	}
}

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 200)
	tests := []struct {
		name string
		in   string
		max  int
		want []string
	}{
		{"empty input", "", 100, nil},
		{"simple", "a\nb\n", 100, []string{"a", "b"}},
		{"crlf", "a\r\nb\r\n", 100, []string{"a", "b"}},
		{"no final newline", "a\nb", 100, []string{"a", "b"}},
		{"final cr without lf", "a\r", 100, []string{"a"}},
		{"empty lines skipped", "\n\n a \n\r\n  \t\n\nb\n\n", 100, []string{" a ", "b"}},
		{"inner cr kept", "a\rb\n", 100, []string{"a\rb"}},
		{"exactly max", "abcde\n", 5, []string{"abcde"}},
		{"exactly max crlf", "abcde\r\n", 5, []string{"abcde"}},
		{"exactly max at eof", "abcde", 5, []string{"abcde"}},
		{"one over max", "abcdef\nok\n", 5, []string{"ERR:too large", "ok"}},
		{"one over max crlf", "abcdef\r\nok\n", 5, []string{"ERR:too large", "ok"}},
		{"oversize in middle", "first\n" + long + "\nsecond\n", 50, []string{"first", "ERR:too large", "second"}},
		{"oversize at eof", "first\n" + long, 50, []string{"first", "ERR:too large"}},
		{"two oversize", long + "\n" + long + "\nz", 50, []string{"ERR:too large", "ERR:too large", "z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, mode := range []string{"whole", "onebyte"} {
				var r io.Reader = strings.NewReader(tt.in)
				if mode == "onebyte" {
					r = iotest.OneByteReader(r)
				}
				got := readAll(t, NewLineReader(r, tt.max))
				if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
					t.Errorf("%s: got %q, want %q", mode, got, tt.want)
				}
			}
		})
	}
}

func TestLineReaderLongLines(t *testing.T) {
	// Lines longer than the internal bufio buffer are assembled correctly,
	// and oversize lines far beyond the buffer are skipped.
	big := bytes.Repeat([]byte("y"), 3*readBufferSize+17)
	huge := bytes.Repeat([]byte("z"), 20*readBufferSize)
	var in bytes.Buffer
	in.Write(big)
	in.WriteString("\r\n")
	in.Write(huge)
	in.WriteString("\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"m"}`)
	lr := NewLineReader(&in, 4*readBufferSize)
	line, err := lr.Next()
	if err != nil || !bytes.Equal(line, big) {
		t.Fatalf("big line: len %d, err %v", len(line), err)
	}
	if _, err := lr.Next(); !errors.Is(err, ErrMessageTooLarge) {
		t.Fatalf("huge line: err %v, want ErrMessageTooLarge", err)
	}
	line, err = lr.Next()
	if err != nil || string(line) != `{"jsonrpc":"2.0","method":"m"}` {
		t.Fatalf("after huge line: %q, %v", line, err)
	}
	if _, err := lr.Next(); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
	// The big line was assembled at its exact length (with its "\r\n"),
	// and the huge one was never gathered.
	if cap(lr.long) != len(big)+2 {
		t.Errorf("the long line's buffer has cap %d, want %d", cap(lr.long), len(big)+2)
	}
	if lr.parts.Len() != 0 {
		t.Errorf("%d bytes still gathered", lr.parts.Len())
	}
}

func TestLineReaderReadError(t *testing.T) {
	boom := errors.New("boom")
	lr := NewLineReader(io.MultiReader(strings.NewReader("ok\npartial"), iotest.ErrReader(boom)), 0)
	if line, err := lr.Next(); err != nil || string(line) != "ok" {
		t.Fatalf("first: %q %v", line, err)
	}
	if _, err := lr.Next(); !errors.Is(err, boom) {
		t.Fatalf("second: %v, want boom", err)
	}
}

func TestLineReaderDefaultMax(t *testing.T) {
	if lr := NewLineReader(strings.NewReader(""), -1); lr.max != DefaultMaxMessageSize {
		t.Errorf("max = %d", lr.max)
	}
}

func TestLineReaderAllocs(t *testing.T) {
	line := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n"
	lr := NewLineReader(strings.NewReader(strings.Repeat(line, 200)), 0)
	n := testing.AllocsPerRun(100, func() {
		if _, err := lr.Next(); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("Next allocates %v times per short line", n)
	}
}

// TestLineReaderLineBuffered: LineBuffered is true exactly when a whole
// non-blank line is buffered, so Next will not read.
func TestLineReaderLineBuffered(t *testing.T) {
	lr := NewLineReader(strings.NewReader("a\nb\n  \r\n\n{\"c\":1}\n \n d"), 0)
	if lr.LineBuffered() {
		t.Fatal("nothing read yet")
	}
	var got []string
	var buffered []bool
	for {
		line, err := lr.Next()
		if err != nil {
			break
		}
		got = append(got, string(line))
		buffered = append(buffered, lr.LineBuffered())
	}
	want := []string{"a", "b", `{"c":1}`, " d"}
	wantBuffered := []bool{true, true, false, false}
	if fmt.Sprint(got) != fmt.Sprint(want) || fmt.Sprint(buffered) != fmt.Sprint(wantBuffered) {
		t.Fatalf("lines %q buffered %v, want %q %v", got, buffered, want, wantBuffered)
	}
}

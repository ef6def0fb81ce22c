package server

import (
	"bytes"
	"os"
	"testing"
)

// TestNoTerminalBannerOnDevNullOrPipe: the "you're on a terminal" banner
// is for a person who started a stdio server by hand. Stdin from /dev/null
// (a service manager, nohup, `docker run` without -i, `</dev/null` in a
// script) is a character device too, which the old check took for a
// terminal: the banner went into the server's log. Neither /dev/null nor
// a pipe gets it.
func TestNoTerminalBannerOnDevNullOrPipe(t *testing.T) {
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Skip(err)
	}
	defer devnull.Close()
	srv, err := New(Options{Name: "hello", Version: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	srv.announceTerminal(devnull, &out)
	if out.Len() > 0 {
		t.Errorf("stdin %s is not a terminal, yet the server announced itself as started on one:\n%s", os.DevNull, out.String())
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	out.Reset()
	srv.announceTerminal(r, &out)
	if out.Len() > 0 {
		t.Errorf("stdin is a pipe, yet the server announced itself as started on a terminal:\n%s", out.String())
	}
}

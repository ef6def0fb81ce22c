package server

import (
	"bytes"
	"os"
	"testing"
)

// TestAttackTerminalBannerOnDevNull: README "A stdio server started by hand
// on a terminal says on stderr what it is and how to talk to it" (and
// announceTerminal: "when a person starts a stdio server by hand (stdin is
// a terminal) ... Hosts start it with pipes, so they never see this").
// The check is fi.Mode()&os.ModeCharDevice, which /dev/null also has: a
// stdio server run with stdin from /dev/null (a service manager, `nohup`,
// `docker run` without -i, `</dev/null` in a script) prints the banner
// "paste one request per line ... Ctrl-D stops it" into its log although no
// person is at a terminal and its input is already at its end.
func TestAttackTerminalBannerOnDevNull(t *testing.T) {
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
}

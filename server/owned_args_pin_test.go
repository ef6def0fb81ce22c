package server

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestOwnedArgumentPinsNoLargerBuffer: a stdio line read into a buffer
// much larger than itself (the line reader's buffer kept from a long blank
// line, reused for the next long line) must not let a string argument the
// tool keeps be a view of that buffer: the tool would then hold the whole
// buffer, not at most twice its argument.
func TestOwnedArgumentPinsNoLargerBuffer(t *testing.T) {
	const blank, size = 8 << 20, 100 << 10
	var kept string
	s, err := New(Options{Name: "t", Version: "1", Tools: []Tool{echoLenTool(&kept)}})
	if err != nil {
		t.Fatal(err)
	}
	p := startStdio(t, s, 0)
	p.send(strings.Repeat(" ", blank)) // skipped; its buffer stays with the line reader
	data := strings.Repeat("abcdefgh", size/8)
	p.request("1", "tools/call", `{"name":"echo_len","arguments":{"data":"`+data+`"}}`)
	if m := p.next(); m["result"] == nil {
		t.Fatalf("call failed: %v", m)
	}
	if kept != data {
		t.Fatal("the argument the tool kept is not the text sent")
	}
	// The next request is read after the call's line and answered after
	// the call ended: nothing of the call but what the tool kept is left.
	p.request("2", "ping", `{}`)
	p.next()
	time.Sleep(50 * time.Millisecond)
	var with, without runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&with)
	kept = ""
	runtime.GC()
	runtime.ReadMemStats(&without)
	if held := int64(with.HeapAlloc) - int64(without.HeapAlloc); held > 4*size {
		t.Errorf("the kept %d-byte argument held %d bytes", size, held)
	}
}

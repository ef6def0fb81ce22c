package server

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
	"testing"
	"unsafe"
)

// TestTerminalBannerOnPseudoTerminal: stdin that is a terminal (here the
// follower end of a new pseudo-terminal) gets the banner.
func TestTerminalBannerOnPseudoTerminal(t *testing.T) {
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer ptmx.Close()
	var unlock int32
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skip(e)
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, ptmx.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skip(e)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer pts.Close()
	srv, err := New(Options{Name: "hello", Version: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	srv.announceTerminal(pts, &out)
	if !bytes.Contains(out.Bytes(), []byte("hello 0.1.0")) {
		t.Errorf("stdin is a terminal, yet no banner: %q", out.String())
	}
}

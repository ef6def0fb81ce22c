package server

import (
	"os"
	"syscall"
)

// stdinIsTerminal reports whether f (stdin) is a console: GetConsoleMode succeeds only
// on one, not on NUL or a pipe.
func stdinIsTerminal(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var mode uint32
	var modeErr error
	if err := rc.Control(func(fd uintptr) {
		modeErr = syscall.GetConsoleMode(syscall.Handle(fd), &mode)
	}); err != nil {
		return false
	}
	return modeErr == nil
}

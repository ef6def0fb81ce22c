package server

import (
	"os"
	"syscall"
	"unsafe"
)

// stdinIsTerminal reports whether f (stdin) is a terminal: the TCGETS ioctl (tcgetattr)
// succeeds only on one, not on /dev/null or another character device.
// The descriptor is used through SyscallConn, which leaves its blocking
// mode alone (File.Fd would set it).
func stdinIsTerminal(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		var t syscall.Termios
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	}); err != nil {
		return false
	}
	return errno == 0
}

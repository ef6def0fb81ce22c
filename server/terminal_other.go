//go:build !linux && !windows

package server

import "os"

// stdinIsTerminal reports whether f (stdin) is a character device other than
// os.DevNull. Where the standard library offers no portable tcgetattr
// (darwin and OpenBSD make system calls through libc), that is the
// closest check without a dependency: it tells a terminal from pipes,
// files and /dev/null, the stdin a host or a service manager gives.
func stdinIsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

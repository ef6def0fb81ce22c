package driver

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// process is a started server with its stderr tail kept for error messages.
type process struct {
	cmd    *exec.Cmd
	stderr *tailBuffer
	done   chan struct{} // closed when the process has exited
	err    error         // exit error, valid after done
}

// startProcess starts bin with stdin/stdout as given; *os.File values are
// handed to the child directly (no copying goroutine).
func startProcess(bin string, args []string, stdin, stdout *os.File) (*process, error) {
	p := &process{stderr: &tailBuffer{max: 32 << 10}, done: make(chan struct{})}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Stderr = p.stderr
	if stdin != nil {
		p.cmd.Stdin = stdin
	}
	if stdout != nil {
		p.cmd.Stdout = stdout
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// startPiped starts bin connected to two OS pipes and returns the parent's
// ends: w writes the child's stdin, r reads its stdout.
func startPiped(bin string, args []string) (p *process, w, r *os.File, err error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, nil, nil, err
	}
	p, err = startProcess(bin, args, inR, outW)
	inR.Close() // the child holds its own copies now
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, nil, nil, err
	}
	return p, inW, outR, nil
}

// stop waits up to grace for the process to exit by itself (the caller has
// closed stdin or will), then interrupts it, then kills it.
func (p *process) stop(grace time.Duration) {
	select {
	case <-p.done:
		return
	case <-time.After(grace):
	}
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.done:
		return
	case <-time.After(2 * time.Second):
	}
	p.kill()
}

// dumpAndKill ends a server that stopped answering. It first sends SIGQUIT,
// on which a Go server prints every goroutine's stack to stderr (kept in the
// tail that describe reports), then kills what is still running after 2 s.
func (p *process) dumpAndKill() {
	_ = p.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-p.done:
		return
	case <-time.After(2 * time.Second):
	}
	p.kill()
}

func (p *process) kill() {
	_ = p.cmd.Process.Kill()
	<-p.done
}

// describe adds the exit status and stderr tail to err.
func (p *process) describe(err error) error {
	select {
	case <-p.done:
		return fmt.Errorf("%w (server exited: %v; stderr: %q)", err, p.err, p.stderr.String())
	default:
		return fmt.Errorf("%w (stderr: %q)", err, p.stderr.String())
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

package driver

import (
	"errors"
	"flag"
	"fmt"
	"sync"
	"testing"
	"time"
)

// InProcess is a server's in-memory dispatch path: one JSON-RPC request in
// (raw bytes, 2026-07-28 with params._meta), the encoded JSON-RPC response
// out, with no transport in between. Implementations live next to each
// server (see internal/peers/*/inproc.go); mcpgen adds its own.
type InProcess interface {
	// Name describes the path, e.g. "go-sdk ServerSession over a raw Connection".
	Name() string
	// Setup builds a server. call must be safe to use sequentially for many
	// requests; cleanup releases the server.
	Setup() (call func(req []byte) ([]byte, error), cleanup func(), err error)
}

// InProcResult is one testing.Benchmark run of InProcess calls.
type InProcResult struct {
	N           int
	NsPerOp     float64
	BytesPerOp  int64
	AllocsPerOp int64
}

var testingInit sync.Once

// SetBenchTime sets testing.Benchmark's target time per run (-test.benchtime).
func SetBenchTime(d time.Duration) error {
	testingInit.Do(testing.Init)
	return flag.Set("test.benchtime", d.String())
}

// ringSize distinct request ids are cycled so a server never sees an id
// reused while it might still track it.
const ringSize = 1024

// RunInProcess verifies one reply of ip against c, then benchmarks the call.
func RunInProcess(ip InProcess, c Call) (InProcResult, error) {
	enc, err := newEncoder(Modern, c)
	if err != nil {
		return InProcResult{}, err
	}
	call, cleanup, err := ip.Setup()
	if err != nil {
		return InProcResult{}, fmt.Errorf("%s: setup: %w", ip.Name(), err)
	}
	defer cleanup()
	reqs := make([][]byte, ringSize)
	for i := range reqs {
		reqs[i] = enc.appendRequest(nil, int64(firstID+i))
	}
	reply, err := call(enc.appendRequest(nil, verifyID))
	if err == nil {
		err = c.verify(reply, verifyID)
	}
	if err != nil {
		return InProcResult{}, fmt.Errorf("%s: verify call: %w", ip.Name(), err)
	}
	var benchErr error
	r := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			if _, err := call(reqs[i%ringSize]); err != nil {
				benchErr = err
				b.FailNow()
			}
		}
	})
	if benchErr != nil {
		return InProcResult{}, fmt.Errorf("%s: %w", ip.Name(), benchErr)
	}
	if r.N == 0 {
		return InProcResult{}, errors.New(ip.Name() + ": benchmark did not run")
	}
	return InProcResult{
		N:           r.N,
		NsPerOp:     float64(r.T.Nanoseconds()) / float64(r.N),
		BytesPerOp:  r.AllocedBytesPerOp(),
		AllocsPerOp: r.AllocsPerOp(),
	}, nil
}

// InProcessCall sets ip up and returns one verified call of c as an
// operation (the allocation guard measures it): every run sends the same
// request and checks the reply's id and that it is no error.
func InProcessCall(ip InProcess, c Call) (op func() error, cleanup func(), err error) {
	enc, err := newEncoder(Modern, c)
	if err != nil {
		return nil, nil, err
	}
	call, cleanup, err := ip.Setup()
	if err != nil {
		return nil, nil, err
	}
	req := enc.appendRequest(nil, verifyID)
	reply, err := call(req)
	if err == nil && (c.Expected != "" || c.Check != nil) {
		err = c.verify(reply, verifyID)
	}
	if err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("%s: verify call: %w", ip.Name(), err)
	}
	return func() error {
		reply, err := call(req)
		if err != nil {
			return err
		}
		if id, failed, ok := parseResponse(reply); !ok || failed || id != verifyID {
			return fmt.Errorf("bad reply: %.300s", reply)
		}
		return nil
	}, cleanup, nil
}

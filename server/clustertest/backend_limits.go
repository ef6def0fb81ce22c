package clustertest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
)

// backendAnyIDAndSize: the task store takes any id (long, or with
// characters a backend's keys refuse) and any record size (a task's result
// can be megabytes), and neither costs the connection.
func backendAnyIDAndSize(t *testing.T, a, b server.Cluster) {
	ctx := t.Context()
	exp := time.Now().Add(time.Minute)
	odd := fmt.Sprintf("contract-%d .*>é\x00/", time.Now().UnixNano())
	long := odd + strings.Repeat("x", 5000)
	for _, id := range []string{long + "-unknown", odd + "-unknown", ""} {
		if _, _, err := b.Tasks().Load(ctx, id); !errors.Is(err, server.ErrTaskNotFound) {
			t.Fatalf("Load of an unknown %d-byte id: %v, want ErrTaskNotFound", len(id), err)
		}
	}
	large := append([]byte{0}, bytes.Repeat([]byte("r"), 3<<20)...) // a zero byte first, 3 MiB
	for _, id := range []string{odd, long} {
		if err := a.Tasks().Create(ctx, id, []byte(`{"v":1}`), exp); err != nil {
			t.Fatalf("Create of a %d-byte id: %v", len(id), err)
		}
		for i, record := range [][]byte{large, []byte("\x00small"), large[:2<<20], []byte(`{"v":2}`)} {
			_, rev, err := b.Tasks().Load(ctx, id)
			if err != nil {
				t.Fatalf("Load %d of a %d-byte id: %v", i, len(id), err)
			}
			if err := b.Tasks().Swap(ctx, id, record, rev, exp); err != nil {
				t.Fatalf("Swap %d (a %d-byte record) of a %d-byte id: %v", i, len(record), len(id), err)
			}
			got, _, err := a.Tasks().Load(ctx, id)
			if err != nil || !bytes.Equal(got, record) {
				t.Fatalf("Load after Swap %d of a %d-byte id: %d bytes %v, want the %d-byte record", i, len(id), len(got), err, len(record))
			}
		}
	}
	if err := a.Tasks().Create(ctx, odd+"-large", large, exp); err != nil {
		t.Fatalf("Create of a %d-byte record: %v", len(large), err)
	}
	if got, _, err := b.Tasks().Load(ctx, odd+"-large"); err != nil || !bytes.Equal(got, large) {
		t.Fatalf("Load of a %d-byte record: %d bytes %v", len(large), len(got), err)
	}
	if err := b.Tasks().Create(ctx, odd+"-large", large, exp); !errors.Is(err, server.ErrTaskExists) {
		t.Fatalf("second Create of a %d-byte record: %v, want ErrTaskExists", len(large), err)
	}
	for _, c := range []server.Cluster{a, b} {
		if err := c.Ping(ctx); err != nil {
			t.Fatalf("Ping after the long ids and large records: %v", err)
		}
	}
}

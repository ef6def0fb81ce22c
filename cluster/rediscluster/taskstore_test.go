package rediscluster

import (
	"errors"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/server"
	"github.com/mcpgen/mcpgen/server/clustertest"
)

// staleSwapAfterRecreate runs, on one backend: Create a record, Load it
// (revision r), let the record go (expire), Create the id again with other
// content, then Swap with the stale revision r. server.TaskStore: "Swap
// replaces the record if its revision is still revision (ErrTaskConflict
// otherwise)" and "every change is a compare-and-swap on the record's
// revision, so concurrent writers never lose each other's update": the new
// record was never read by that writer, so its Swap must conflict and the
// new record must survive.
func staleSwapAfterExpiry(t *testing.T, c server.Cluster) {
	ctx := t.Context()
	id := "aba-" + time.Now().Format("150405.000000000")
	if err := c.Tasks().Create(ctx, id, []byte(`{"v":"old"}`), time.Now().Add(300*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	_, rev, err := c.Tasks().Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if _, _, err := c.Tasks().Load(ctx, id); !errors.Is(err, server.ErrTaskNotFound) {
		t.Fatalf("Load after expiry: %v, want ErrTaskNotFound", err)
	}
	if err := c.Tasks().Create(ctx, id, []byte(`{"v":"new"}`), time.Now().Add(time.Minute)); err != nil {
		t.Fatalf("Create after expiry: %v", err)
	}
	err = c.Tasks().Swap(ctx, id, []byte(`{"v":"stale edit"}`), rev, time.Now().Add(time.Minute))
	got, _, _ := c.Tasks().Load(ctx, id)
	if !errors.Is(err, server.ErrTaskConflict) || string(got) != `{"v":"new"}` {
		t.Fatalf("Swap with the revision (%d) of the expired record: %v, record now %s; want ErrTaskConflict and the re-created record kept", rev, err, got)
	}
}

// The same sequence on the embedded in-process backend and on Redis must
// give the same result: revisions never repeat for an id (Memory counts,
// Redis draws a random one per write), so the stale Swap conflicts.
func TestSwapWithRevisionOfExpiredRecordConflictsMemory(t *testing.T) {
	staleSwapAfterExpiry(t, clustertest.NewMemory())
}

func TestSwapWithRevisionOfExpiredRecordConflicts(t *testing.T) {
	staleSwapAfterExpiry(t, connect(t, startRedis(t)))
}

// README, "Running several replicas": the owner "re-creates, until the
// TTL, a record the store lost (Redis restarted without persistence)".
// A replica that read the record (revision 1) before the restart — a
// tasks/cancel or tasks/update in flight — then swaps its edit onto the
// owner's re-created record: the Swap must conflict (the record changed
// since it was read), not overwrite what the owner wrote.
func TestSwapWithRevisionReadBeforeRestartConflicts(t *testing.T) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatal("redis-server is not installed")
	}
	dir := t.TempDir()
	rs := &restartableRedis{bin: bin, dir: dir, sock: filepath.Join(dir, "redis.sock")}
	rs.start(t)
	t.Cleanup(rs.stop)
	url := "unix://" + rs.sock
	owner, other := connect(t, url), connect(t, url)
	ctx := t.Context()
	exp := time.Now().Add(time.Minute)
	id := "0123456789abcdef0123456789abcdef"
	if err := owner.Tasks().Create(ctx, id, []byte(`{"status":"working"}`), exp); err != nil {
		t.Fatal(err)
	}
	_, rev, err := other.Tasks().Load(ctx, id) // tasks/cancel on another replica reads
	if err != nil {
		t.Fatal(err)
	}
	rs.stop()
	rs.start(t)
	// The owner finds the record gone and re-creates it with its news.
	var cerr error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cerr = owner.Tasks().Create(ctx, id, []byte(`{"status":"completed"}`), exp); cerr == nil {
			break
		}
	}
	if cerr != nil {
		t.Fatalf("re-create after the restart: %v", cerr)
	}
	var serr error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		serr = other.Tasks().Swap(ctx, id, []byte(`{"status":"cancelled"}`), rev, exp)
		if serr == nil || errors.Is(serr, server.ErrTaskConflict) || errors.Is(serr, server.ErrTaskNotFound) {
			break
		}
	}
	got, _, _ := owner.Tasks().Load(ctx, id)
	if !errors.Is(serr, server.ErrTaskConflict) || string(got) != `{"status":"completed"}` {
		t.Fatalf("Swap with revision %d read before the restart: %v, record now %s; want ErrTaskConflict and the owner's re-created record kept", rev, serr, got)
	}
}

package rediscluster

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/server"
	"github.com/redis/go-redis/v9"
)

// taskStore keeps each record in a hash {rev, made, data} that expires
// with its task; Create and Swap are Lua scripts, so the check and the
// write are one atomic step.
//
// A revision is a random 64-bit number drawn by the writer, not a counter
// kept in Redis: a record that expired, or that a restart without
// persistence lost, is created again with a revision no one read before,
// so a write prepared from the lost record conflicts instead of
// overwriting the new one (a counter in Redis would start over with the
// restart). made holds the revision Create drew, and a Swap's new revision
// is its own: an attempt go-redis retries because its reply was lost (a
// blip, a failover) finds its own write and succeeds, instead of reading
// as a taken id or a conflict.
type taskStore struct{ c *Cluster }

var (
	createScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'made') == ARGV[3] then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'rev', ARGV[3], 'made', ARGV[3], 'data', ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1`)
	swapScript = redis.NewScript(`
local rev = redis.call('HGET', KEYS[1], 'rev')
if not rev then return -1 end
if rev == ARGV[4] then return 1 end
if rev ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[4], 'data', ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return 1`)
)

// newRevision draws a revision (never 0).
func newRevision() string {
	for {
		if r := rand.Uint64(); r != 0 {
			return strconv.FormatUint(r, 10)
		}
	}
}

func (s taskStore) key(id string) string { return s.c.prefix + "task:" + id }

func (s taskStore) Create(ctx context.Context, id string, record []byte, expires time.Time) error {
	n, err := createScript.Run(ctx, s.c.rdb, []string{s.key(id)}, record, expires.UnixMilli(), newRevision()).Int()
	if err != nil {
		return err
	}
	if n == 0 {
		return server.ErrTaskExists
	}
	return nil
}

func (s taskStore) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	vals, err := s.c.rdb.HMGet(ctx, s.key(id), "rev", "data").Result()
	if err != nil {
		return nil, 0, err
	}
	revText, ok1 := vals[0].(string)
	data, ok2 := vals[1].(string)
	if !ok1 || !ok2 {
		return nil, 0, server.ErrTaskNotFound
	}
	rev, err := strconv.ParseUint(revText, 10, 64)
	if err != nil {
		return nil, 0, fmt.Errorf("rediscluster: task %s: revision %q: %w", id, revText, err)
	}
	return []byte(data), rev, nil
}

func (s taskStore) Swap(ctx context.Context, id string, record []byte, revision uint64, expires time.Time) error {
	n, err := swapScript.Run(ctx, s.c.rdb, []string{s.key(id)}, strconv.FormatUint(revision, 10), record, expires.UnixMilli(), newRevision()).Int()
	switch {
	case err != nil:
		return err
	case n == -1:
		return server.ErrTaskNotFound
	case n == 0:
		return server.ErrTaskConflict
	}
	return nil
}

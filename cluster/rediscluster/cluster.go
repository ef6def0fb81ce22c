// Package rediscluster connects the replicas of an mcpgen server through
// Redis (server.Options.Cluster): changes travel on a pub/sub channel,
// task records are hashes changed by compare-and-swap scripts, and
// replica heartbeats are keys that expire.
//
//	c, err := rediscluster.Connect(os.Getenv("MCPGEN_REDIS_URL"), rediscluster.Options{})
//	...
//	srv, err := server.New(server.Options{..., Cluster: c})
//	...
//	defer c.Close() // after srv.Shutdown
//
// It is its own Go module so that servers without a cluster do not link
// the Redis client.
package rediscluster

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/server"
	"github.com/redis/go-redis/v9"
)

// URLEnv is the environment variable the examples and the scaffold read
// the Redis URL from (redis://host:port/db, rediss://…, unix:///path).
const URLEnv = "MCPGEN_REDIS_URL"

// Options configure a Cluster.
type Options struct {
	// Name prefixes the keys and the channel of one server's replicas
	// (default "mcpgen").
	Name string
}

// Cluster is a server.Cluster on Redis.
type Cluster struct {
	rdb     redis.UniversalClient
	own     bool
	prefix  string
	channel string
}

var _ server.Cluster = (*Cluster)(nil)

// Connect opens a client for url (redis.ParseURL); Close closes it.
func Connect(url string, opts Options) (*Cluster, error) {
	o, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("rediscluster: %s: %w", url, err)
	}
	c := New(redis.NewClient(o), opts)
	c.own = true
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx); err != nil {
		c.rdb.Close()
		return nil, fmt.Errorf("rediscluster: connecting to %s: %w", url, err)
	}
	return c, nil
}

// New returns a Cluster on an open client.
func New(rdb redis.UniversalClient, opts Options) *Cluster {
	name := opts.Name
	if name == "" {
		name = "mcpgen"
	}
	return &Cluster{rdb: rdb, prefix: name + ":", channel: name + ":changes"}
}

// Close closes the client Connect opened (not one given to New).
func (c *Cluster) Close() error {
	if c.own {
		return c.rdb.Close()
	}
	return nil
}

// Publish implements server.Cluster.
func (c *Cluster) Publish(ctx context.Context, msg []byte) error {
	return c.rdb.Publish(ctx, c.channel, msg).Err()
}

// Subscribe implements server.Cluster: it returns once Redis confirmed the
// subscription; one goroutine delivers the messages in order.
func (c *Cluster) Subscribe(ctx context.Context, deliver func([]byte)) error {
	ps := c.rdb.Subscribe(ctx, c.channel)
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := ps.Receive(rctx); err != nil { // the subscription confirmation
		ps.Close()
		return err
	}
	ch := ps.Channel(redis.WithChannelSize(4096))
	context.AfterFunc(ctx, func() { ps.Close() })
	go func() {
		for m := range ch {
			deliver([]byte(m.Payload))
		}
	}()
	return nil
}

// Heartbeat implements server.Cluster: a key that expires after ttl.
func (c *Cluster) Heartbeat(ctx context.Context, replica string, ttl time.Duration) error {
	return c.rdb.Set(ctx, c.prefix+"replica:"+replica, "1", ttl).Err()
}

// Alive implements server.Cluster.
func (c *Cluster) Alive(ctx context.Context, replica string) (bool, error) {
	n, err := c.rdb.Exists(ctx, c.prefix+"replica:"+replica).Result()
	return n == 1, err
}

// Ping implements server.Cluster.
func (c *Cluster) Ping(ctx context.Context) error { return c.rdb.Ping(ctx).Err() }

// Tasks implements server.Cluster.
func (c *Cluster) Tasks() server.TaskStore { return taskStore{c} }

// taskStore keeps each record in a hash {rev, data} that expires with its
// task; Create and Swap are Lua scripts, so the check and the write are
// one atomic step.
type taskStore struct{ c *Cluster }

var (
	createScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'rev', 1, 'data', ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
return 1`)
	swapScript = redis.NewScript(`
local rev = redis.call('HGET', KEYS[1], 'rev')
if not rev then return -1 end
if rev ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', tonumber(rev) + 1, 'data', ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return 1`)
)

func (s taskStore) key(id string) string { return s.c.prefix + "task:" + id }

func (s taskStore) Create(ctx context.Context, id string, record []byte, expires time.Time) error {
	n, err := createScript.Run(ctx, s.c.rdb, []string{s.key(id)}, record, expires.UnixMilli()).Int()
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
	n, err := swapScript.Run(ctx, s.c.rdb, []string{s.key(id)}, strconv.FormatUint(revision, 10), record, expires.UnixMilli()).Int()
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

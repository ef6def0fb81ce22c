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
	"time"

	"github.com/mcpgen/mcpgen/internal/secretscrub"
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

// Connect opens a client for rawURL (redis.ParseURL); Close closes it.
// Its errors name the URL as rebuilt from its parts: without its
// password, without the values of query parameters other than go-redis's
// harmless options (db, dial_timeout, …) and without its fragment, and
// they scrub those from go-redis's errors. A URL that does not parse or
// looks odd is refused with an error that quotes none of it: one without
// "://" after its scheme, with an '@' after its host (a password holding
// '/', '?' or '#' unescaped), with a user name or password but no host,
// or with a query that does not parse.
func Connect(rawURL string, opts Options) (*Cluster, error) {
	shown, secrets, err := redactURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("rediscluster: %w", err)
	}
	o, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("rediscluster: %s: %w", shown, secretscrub.Error(err, secrets))
	}
	c := New(redis.NewClient(o), opts)
	c.own = true
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx); err != nil {
		c.rdb.Close()
		return nil, fmt.Errorf("rediscluster: connecting to %s: %w", shown, secretscrub.Error(err, secrets))
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

// Heartbeat implements server.Cluster: a key that expires after ttl. A ttl
// of 0 or less ends the replica's life at once (deletes the key): for
// Redis, a SET without expiry would keep it alive for ever.
func (c *Cluster) Heartbeat(ctx context.Context, replica string, ttl time.Duration) error {
	key := c.prefix + "replica:" + replica
	if ttl <= 0 {
		return c.rdb.Del(ctx, key).Err()
	}
	return c.rdb.Set(ctx, key, "1", ttl).Err()
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

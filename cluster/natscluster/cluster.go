// Package natscluster connects the replicas of an mcpgen server through
// NATS (server.Options.Cluster): changes travel on a core NATS subject,
// tasks and replica heartbeats live in two JetStream key-value buckets
// (compare-and-swap on the key's revision), and a task record too large for
// one NATS message in a JetStream object store (taskstore.go). The NATS
// server must run with JetStream enabled (nats-server -js).
//
//	c, err := natscluster.Connect(os.Getenv("MCPGEN_NATS_URL"), natscluster.Options{})
//	...
//	srv, err := server.New(server.Options{..., Cluster: c})
//	...
//	defer c.Close() // after srv.Shutdown
//
// It is its own Go module so that servers without a cluster do not link
// the NATS client.
package natscluster

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/mcpgen/mcpgen/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// URLEnv is the environment variable the examples and the scaffold read
// the NATS URL from.
const URLEnv = "MCPGEN_NATS_URL"

// Options configure a Cluster.
type Options struct {
	// Name separates the subjects and buckets of one server's replicas from
	// other servers on the same NATS (letters, digits, - and _; default
	// "mcpgen").
	Name string
	// TaskRetention is how long the tasks bucket and the records object
	// store keep a record at most, expired or not (their TTL; default
	// 1 h). A record expires at its task's expiry: past it, it reads as
	// gone and is deleted, with its object, when read; one nobody reads
	// again stays until TaskRetention, which therefore bounds what the
	// store holds: keep it above the server's task TTL (5 min by default),
	// not far above.
	TaskRetention time.Duration
}

// defaultTaskRetention is Options.TaskRetention's default: well above the
// server's task TTL (5 min), so that no record is lost before its expiry,
// and low enough to bound the records nobody reads after it.
const defaultTaskRetention = time.Hour

// Cluster is a server.Cluster on NATS.
type Cluster struct {
	nc       *nats.Conn
	own      bool // Connect opened nc; Close closes it
	subject  string
	buckets  *buckets // creates them again should NATS lose them
	tasks    jetstream.KeyValue
	records  jetstream.ObjectStore // task records too large for tasks
	objects  objectRefs            // the objects of records read last
	replicas jetstream.KeyValue
}

var _ server.Cluster = (*Cluster)(nil)

// Connect dials url (a list of server URLs separated by commas) and
// returns a Cluster on it; Close closes the connection. Its errors name
// each URL as rebuilt from its parts, without its password or token (nor
// its path, query or fragment), and they scrub those from nats.go's
// errors. An entry that does not parse or looks odd is refused with an
// error that names its index and quotes none of it: one without "://"
// after its scheme, with an '@' after its host (a password or token
// holding '/', '?' or '#' unescaped), or with a user name, password or
// token but no host (one holding ',', which splits the entry). An entry
// without "://" is read as nats://<entry>, as nats.go does.
func Connect(url string, opts Options) (*Cluster, error) {
	shown, secrets, err := redactURLs(url)
	if err != nil {
		return nil, fmt.Errorf("natscluster: %w", err)
	}
	nc, err := nats.Connect(url, nats.Name("mcpgen"), nats.MaxReconnects(-1))
	if err != nil {
		return nil, fmt.Errorf("natscluster: connecting to %s: %w", shown, scrubbed(err, secrets))
	}
	c, err := New(nc, opts)
	if err != nil {
		nc.Close()
		return nil, err
	}
	c.own = true
	return c, nil
}

// New returns a Cluster on an open connection, creating the buckets it
// needs when they do not exist: the key-value buckets <Name>_tasks and
// <Name>_replicas and the object store <Name>_records. It creates them
// again whenever NATS has lost them (buckets.go).
func New(nc *nats.Conn, opts Options) (*Cluster, error) {
	name := opts.Name
	if name == "" {
		name = "mcpgen"
	}
	retention := opts.TaskRetention
	if retention <= 0 {
		retention = defaultTaskRetention
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("natscluster: %w", err)
	}
	b := &buckets{js: js, name: name, retention: retention, creating: make(chan struct{}, 1)}
	ctx, cancel := context.WithTimeout(context.Background(), createTimeout)
	defer cancel()
	tasks, replicas, records, err := b.create(ctx)
	if err != nil {
		return nil, err
	}
	return &Cluster{nc: nc, subject: "mcpgen." + name + ".changes", buckets: b,
		tasks: tasks, records: records, replicas: replicas}, nil
}

// Close closes the connection Connect opened (not one given to New).
func (c *Cluster) Close() error {
	if c.own {
		c.nc.Close()
	}
	return nil
}

// Publish implements server.Cluster: a core NATS publish, flushed. While
// the connection is down (nats.go reconnecting) it does not wait for the
// flush: the message goes to nats.go's reconnect buffer, sent once the
// connection is back, and Publish fails only when that buffer is full;
// changes travel at most once, so none is worth holding the replica's
// queue of changes for the length of an outage.
func (c *Cluster) Publish(ctx context.Context, msg []byte) error {
	if err := c.nc.Publish(c.subject, msg); err != nil {
		return err
	}
	if !c.nc.IsConnected() {
		return nil
	}
	return c.flush(ctx)
}

// flush waits until the NATS server has processed what was sent (a
// ping round trip); NATS needs a deadline, 5 s unless ctx has one.
func (c *Cluster) flush(ctx context.Context) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
	}
	return c.nc.FlushWithContext(ctx)
}

// Subscribe implements server.Cluster. NATS calls deliver from one
// goroutine per subscription, in order.
func (c *Cluster) Subscribe(ctx context.Context, deliver func([]byte)) error {
	sub, err := c.nc.Subscribe(c.subject, func(m *nats.Msg) { deliver(m.Data) })
	if err != nil {
		return err
	}
	if err := sub.SetPendingLimits(-1, 64<<20); err != nil {
		_ = sub.Unsubscribe()
		return err
	}
	if err := c.flush(ctx); err != nil { // the server has the subscription
		_ = sub.Unsubscribe()
		return err
	}
	context.AfterFunc(ctx, func() { _ = sub.Unsubscribe() })
	return nil
}

// Heartbeat implements server.Cluster: the replica's key (storeKey) holds
// the time its heartbeat ends.
func (c *Cluster) Heartbeat(ctx context.Context, replica string, ttl time.Duration) error {
	deadline := time.Now().Add(ttl).UnixMilli()
	return c.buckets.retry(ctx, func() error {
		_, err := c.replicas.Put(ctx, storeKey(replica), strconv.AppendInt(nil, deadline, 10))
		return err
	})
}

// Alive implements server.Cluster.
func (c *Cluster) Alive(ctx context.Context, replica string) (bool, error) {
	var e jetstream.KeyValueEntry
	err := c.buckets.retry(ctx, func() (err error) {
		e, err = c.replicas.Get(ctx, storeKey(replica))
		return err
	})
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	deadline, err := strconv.ParseInt(string(e.Value()), 10, 64)
	if err != nil {
		return false, fmt.Errorf("natscluster: heartbeat of %s: %w", replica, err)
	}
	return time.Now().UnixMilli() < deadline, nil
}

// Ping implements server.Cluster: a round trip to the NATS server, and
// the buckets exist (created again should NATS have lost them; Ping fails
// while they cannot be).
func (c *Cluster) Ping(ctx context.Context) error {
	if err := c.flush(ctx); err != nil {
		return err
	}
	return c.buckets.retry(ctx, func() error { return c.present(ctx) })
}

// present returns an error unless every bucket exists.
func (c *Cluster) present(ctx context.Context) error {
	if _, err := c.tasks.Status(ctx); err != nil {
		return fmt.Errorf("natscluster: tasks bucket: %w", err)
	}
	if _, err := c.records.Status(ctx); err != nil {
		return fmt.Errorf("natscluster: records object store: %w", err)
	}
	if _, err := c.replicas.Status(ctx); err != nil {
		return fmt.Errorf("natscluster: replicas bucket: %w", err)
	}
	return nil
}

// Tasks implements server.Cluster.
func (c *Cluster) Tasks() server.TaskStore {
	return taskStore{nc: c.nc, buckets: c.buckets, kv: c.tasks, records: c.records, objects: &c.objects}
}

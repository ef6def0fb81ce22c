package natscluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// buckets creates the JetStream buckets a Cluster keeps its state in, and
// creates them again when NATS has lost them: a nats-server restarted
// without its JetStream store (a container without a volume, a fresh
// node) comes back without them, and every task call would fail for as
// long as the replica runs. A call that fails because a bucket is missing
// has them created again (by one call at a time, at most once per
// recreateEvery) and is made once more; Ping checks that they exist,
// so /readyz reports the replica unready while they cannot be created
// again. The handles New took stay valid: they address the buckets by
// name.
type buckets struct {
	js        jetstream.JetStream
	name      string
	retention time.Duration

	creating chan struct{} // holds a token while recreate creates them again
	created  time.Time     // when recreate last created them (under creating)
}

// recreateEvery spaces the re-creations calls failing at once ask for.
const recreateEvery = time.Second

// createTimeout bounds the creation of the buckets in New, recreateTimeout
// their creation again (within the call that found one missing).
const (
	createTimeout   = 10 * time.Second
	recreateTimeout = 2 * time.Second
)

// create creates the buckets that do not exist (updating the settings of
// those that do) and returns them.
func (b *buckets) create(ctx context.Context) (tasks, replicas jetstream.KeyValue, records jetstream.ObjectStore, err error) {
	tasks, err = b.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: b.name + "_tasks", Description: "mcpgen tasks", History: 1, TTL: b.retention,
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("natscluster: tasks bucket (is JetStream enabled on the server?): %w", err)
	}
	records, err = b.js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
		Bucket: b.name + "_records", Description: "mcpgen task records too large for one message", TTL: b.retention,
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("natscluster: records object store: %w", err)
	}
	replicas, err = b.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: b.name + "_replicas", Description: "mcpgen replica heartbeats", History: 1, TTL: time.Hour,
	})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("natscluster: replicas bucket: %w", err)
	}
	return tasks, replicas, records, nil
}

// missing reports whether err says a bucket is gone: its stream is not
// found, or nothing answers on its subjects.
func missing(err error) bool {
	return errors.Is(err, jetstream.ErrStreamNotFound) || errors.Is(err, jetstream.ErrBucketNotFound) ||
		errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, nats.ErrNoResponders)
}

// recreate creates the buckets again when err says one is missing, unless
// that was done within recreateEvery; it reports whether the failed call
// is worth making again. One call at a time creates them (within
// recreateTimeout: a request to a server going down may hang); the others
// wait for it, as long as their context lets them, and use its work.
func (b *buckets) recreate(ctx context.Context, err error) bool {
	if !missing(err) {
		return false
	}
	select {
	case b.creating <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	defer func() { <-b.creating }()
	if time.Since(b.created) < recreateEvery {
		return true // another call has just created them
	}
	ctx, cancel := context.WithTimeout(ctx, recreateTimeout)
	defer cancel()
	if _, _, _, err := b.create(ctx); err != nil {
		return false
	}
	b.created = time.Now()
	return true
}

// retry makes call, and once more should it fail for a missing bucket
// that recreate created again.
func (b *buckets) retry(ctx context.Context, call func() error) error {
	err := call()
	if err != nil && b.recreate(ctx, err) {
		err = call()
	}
	return err
}

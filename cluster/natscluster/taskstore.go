package natscluster

import (
	"context"
	"errors"
	"time"

	"github.com/mcpgen/mcpgen/server"
	"github.com/nats-io/nats.go/jetstream"
)

// taskStore keeps task records in the tasks bucket under storeKey(id); the
// revision is the key's JetStream revision.
type taskStore struct{ kv jetstream.KeyValue }

func (s taskStore) Create(ctx context.Context, id string, record []byte, _ time.Time) error {
	_, err := s.kv.Create(ctx, storeKey(id), record)
	if errors.Is(err, jetstream.ErrKeyExists) {
		return server.ErrTaskExists
	}
	return err
}

func (s taskStore) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	e, err := s.kv.Get(ctx, storeKey(id))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, 0, server.ErrTaskNotFound
	}
	if err != nil {
		return nil, 0, err
	}
	return e.Value(), e.Revision(), nil
}

func (s taskStore) Swap(ctx context.Context, id string, record []byte, revision uint64, _ time.Time) error {
	_, err := s.kv.Update(ctx, storeKey(id), record, revision)
	if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		if _, _, lerr := s.Load(ctx, id); errors.Is(lerr, server.ErrTaskNotFound) {
			return server.ErrTaskNotFound
		}
		return server.ErrTaskConflict
	}
	return err
}

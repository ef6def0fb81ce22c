package natscluster

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// taskStore keeps task records in the tasks bucket under storeKey(id); the
// revision is the key's JetStream revision, so every change is a
// compare-and-swap on it.
//
// A record too large for one NATS message (the server's max_payload, 1 MiB
// by default: a task's result or input requests can be larger) lives in the
// records object store, which chunks it, and the key holds a reference to
// it instead; the compare-and-swap stays on the key. A value is either
//
//   - the record itself, when it does not begin with a zero byte (every
//     record the runtime writes is JSON),
//   - "\x00r" and the record (a record that begins with a zero byte), or
//   - "\x00o" and the name of the object holding the record.
//
// Each object gets a fresh name, so a writer that loses the
// compare-and-swap never touches the object of the one that won; it deletes
// its own, and the winner deletes the object of the record it replaced when
// this process read that record (objectRefs: the runtime loads a record
// before it swaps it). The object store expires objects like the tasks
// bucket expires keys (Options.TaskRetention), so an object no record
// references any more, should a delete fail or the replaced record have
// been read elsewhere, outlives its record by that long at most.
type taskStore struct {
	nc      *nats.Conn
	kv      jetstream.KeyValue
	records jetstream.ObjectStore
	objects *objectRefs
}

// Value tags (see taskStore).
const (
	tagged       = 0x00
	tagRecord    = 'r'
	tagObject    = 'o'
	headerMargin = 4 << 10 // room left in a message for its headers
)

// dropTimeout bounds the delete of an object no record references any
// more; it runs even when the request that replaced the record is over.
const dropTimeout = 5 * time.Second

// loadAttempts bounds how often Load re-reads a key whose object a
// concurrent Swap replaced between the two reads.
const loadAttempts = 8

func (s taskStore) Create(ctx context.Context, id string, record []byte, _ time.Time) error {
	key := storeKey(id)
	value, object, err := s.pack(ctx, key, record)
	if err != nil {
		return err
	}
	if _, err = s.kv.Create(ctx, key, value); err != nil {
		s.drop(ctx, object)
		if errors.Is(err, jetstream.ErrKeyExists) {
			return server.ErrTaskExists
		}
		return err
	}
	return nil
}

func (s taskStore) Load(ctx context.Context, id string) ([]byte, uint64, error) {
	key := storeKey(id)
	var lastRevision uint64
	for range loadAttempts {
		e, err := s.kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return nil, 0, server.ErrTaskNotFound
		}
		if err != nil {
			return nil, 0, err
		}
		object, ok := objectOf(e.Value())
		if !ok {
			return unpack(e.Value()), e.Revision(), nil
		}
		record, err := s.records.GetBytes(ctx, object)
		if err == nil {
			s.objects.note(key, e.Revision(), object)
			return record, e.Revision(), nil
		}
		if !errors.Is(err, jetstream.ErrObjectNotFound) {
			return nil, 0, fmt.Errorf("natscluster: task %s: reading its record: %w", id, err)
		}
		if e.Revision() == lastRevision {
			// Not replaced, yet gone: expired with the object store's TTL.
			return nil, 0, server.ErrTaskNotFound
		}
		lastRevision = e.Revision() // replaced by a Swap meanwhile: read again
	}
	return nil, 0, fmt.Errorf("natscluster: task %s: its record kept changing while read", id)
}

func (s taskStore) Swap(ctx context.Context, id string, record []byte, revision uint64, _ time.Time) error {
	key := storeKey(id)
	value, object, err := s.pack(ctx, key, record)
	if err != nil {
		return err
	}
	if _, err := s.kv.Update(ctx, key, value, revision); err != nil {
		s.drop(ctx, object)
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			if _, lerr := s.kv.Get(ctx, key); errors.Is(lerr, jetstream.ErrKeyNotFound) {
				return server.ErrTaskNotFound
			}
			return server.ErrTaskConflict
		}
		return err
	}
	s.drop(ctx, s.objects.replaced(key, revision))
	return nil
}

// pack returns the value that stores record under key: the record itself
// when one message carries it, else a reference to a new object holding it
// (and that object's name, "" when none).
func (s taskStore) pack(ctx context.Context, key string, record []byte) (value []byte, object string, err error) {
	if int64(len(record))+2 <= s.nc.MaxPayload()-headerMargin {
		if len(record) > 0 && record[0] == tagged {
			return append([]byte{tagged, tagRecord}, record...), "", nil
		}
		return record, "", nil
	}
	object = key + "/" + rand.Text()
	if _, err := s.records.PutBytes(ctx, object, record); err != nil {
		return nil, "", fmt.Errorf("natscluster: storing a %d-byte task record: %w", len(record), err)
	}
	return append([]byte{tagged, tagObject}, object...), object, nil
}

// unpack returns the record a value that references no object holds.
func unpack(value []byte) []byte {
	if rest, ok := bytes.CutPrefix(value, []byte{tagged, tagRecord}); ok {
		return rest
	}
	return value
}

// objectOf returns the object a value references.
func objectOf(value []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(value, []byte{tagged, tagObject})
	return string(rest), ok
}

// drop deletes object ("" is none). A failure leaves it to the object
// store's TTL.
func (s taskStore) drop(ctx context.Context, object string) {
	if object == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dropTimeout)
	defer cancel()
	_ = s.records.Delete(ctx, object)
}

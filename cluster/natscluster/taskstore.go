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
// records object store, in chunks that each fit one message (messageRoom),
// and the key holds a reference to it instead; the compare-and-swap stays on the key. A value is either
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
// been read elsewhere, outlives its record by that long at most. A write
// whose answer is an error that may hide a stored write (a lost reply)
// reads the key back before it deletes its object (settle), so no key is
// left referencing an object that is gone because of it.
//
// A record expires at the time Create or Swap gives (expiry.go): past it,
// Load reports it not found and deletes it, and Create takes its id.
//
// A key whose object is gone nonetheless (the object's TTL ends a moment
// before the key's, being written first) holds no record: Load reports it
// not found, and Create takes the id, replacing the key by a
// compare-and-swap on its revision, as server.TaskStore asks (the owner
// re-creates a record the store lost).
type taskStore struct {
	nc      *nats.Conn
	buckets *buckets // creates them again should NATS lose them
	kv      jetstream.KeyValue
	records jetstream.ObjectStore
	objects *objectRefs
}

// Value tags (see taskStore).
const (
	tagged       = 0x00
	tagRecord    = 'r'
	tagObject    = 'o'
	headerMargin = 4 << 10 // room left in a message for its headers (half of a smaller one)
)

// dropTimeout bounds the delete of an object no record references any
// more; it runs even when the request that replaced the record is over.
const dropTimeout = 5 * time.Second

// createAttempts bounds how often Create tries again to take a key that
// holds no record (vacant) when the key changes meanwhile.
const createAttempts = 3

// loadAttempts bounds how often Load re-reads a key whose object a
// concurrent Swap replaced between the two reads.
const loadAttempts = 8

func (s taskStore) Create(ctx context.Context, id string, record []byte, expires time.Time) error {
	return s.buckets.retry(ctx, func() error { return s.create(ctx, id, record, expires) })
}

func (s taskStore) Load(ctx context.Context, id string) (record []byte, revision uint64, err error) {
	err = s.buckets.retry(ctx, func() (err error) {
		record, revision, err = s.load(ctx, id)
		return err
	})
	return record, revision, err
}

func (s taskStore) Swap(ctx context.Context, id string, record []byte, revision uint64, expires time.Time) error {
	return s.buckets.retry(ctx, func() error { return s.swap(ctx, id, record, revision, expires) })
}

// create is Create, once.
func (s taskStore) create(ctx context.Context, id string, record []byte, expires time.Time) error {
	key := storeKey(id)
	value, object, err := s.pack(ctx, key, record, expires)
	if err != nil {
		return err
	}
	for range createAttempts {
		_, err := s.kv.Create(ctx, key, value)
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return s.settle(ctx, key, object, err)
		}
		revision, free, stale, err := s.vacant(ctx, key)
		if err != nil {
			s.drop(ctx, object)
			return err
		}
		if !free {
			break
		}
		// Load reports no record (expired, or the key references an
		// object that is gone): the id is free; take it unless the key
		// changes meanwhile, and delete the expired record's object.
		_, err = s.kv.Update(ctx, key, value, revision)
		if !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			err = s.settle(ctx, key, object, err)
			if err == nil {
				s.drop(ctx, stale)
			}
			return err
		}
	}
	s.drop(ctx, object)
	return server.ErrTaskExists
}

// load is Load, once.
func (s taskStore) load(ctx context.Context, id string) ([]byte, uint64, error) {
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
		if expired(e.Value()) {
			s.remove(ctx, key, e.Revision(), e.Value())
			return nil, 0, server.ErrTaskNotFound
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

// swap is Swap, once.
func (s taskStore) swap(ctx context.Context, id string, record []byte, revision uint64, expires time.Time) error {
	if !time.Now().Before(expires) {
		// The record keeps expiring at expires, which has come: it is
		// gone, and a revision read before its expiry does not write it
		// back (the key, as Load finds it expired, is deleted then).
		return server.ErrTaskNotFound
	}
	key := storeKey(id)
	value, object, err := s.pack(ctx, key, record, expires)
	if err != nil {
		return err
	}
	_, err = s.kv.Update(ctx, key, value, revision)
	if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		s.drop(ctx, object)
		if _, lerr := s.kv.Get(ctx, key); errors.Is(lerr, jetstream.ErrKeyNotFound) {
			return server.ErrTaskNotFound
		}
		return server.ErrTaskConflict
	}
	if err := s.settle(ctx, key, object, err); err != nil {
		return err
	}
	s.drop(ctx, s.objects.replaced(key, revision))
	return nil
}

// pack returns the value that stores record, expiring at expires, under
// key: the record itself when one message carries it, else a reference to
// a new object holding it (and that object's name, "" when none).
func (s taskStore) pack(ctx context.Context, key string, record []byte, expires time.Time) (value []byte, object string, err error) {
	room := messageRoom(s.nc.MaxPayload())
	if int64(len(record))+expiresLen+2 <= room {
		if len(record) > 0 && record[0] == tagged {
			return withExpiry(expires, append([]byte{tagged, tagRecord}, record...)), "", nil
		}
		return withExpiry(expires, record), "", nil
	}
	object = key + "/" + rand.Text()
	meta := jetstream.ObjectMeta{Name: object, Opts: &jetstream.ObjectMetaOptions{ChunkSize: uint32(room)}}
	if _, err := s.records.Put(ctx, meta, bytes.NewReader(record)); err != nil {
		return nil, "", fmt.Errorf("natscluster: storing a %d-byte task record: %w", len(record), err)
	}
	return withExpiry(expires, append([]byte{tagged, tagObject}, object...)), object, nil
}

// messageRoom is how much of a message of at most maxPayload bytes (the
// NATS server's max_payload) a value or an object's chunk may take, the
// rest left for its headers: nats.go chunks objects at 128 KiB whatever
// the server takes, so the store sizes the chunks itself.
func messageRoom(maxPayload int64) int64 {
	return maxPayload - min(headerMargin, maxPayload/2)
}

// unpack returns the record a value that references no object holds.
func unpack(value []byte) []byte {
	_, value, _ = splitExpiry(value)
	if rest, ok := bytes.CutPrefix(value, []byte{tagged, tagRecord}); ok {
		return rest
	}
	return value
}

// objectOf returns the object a value references.
func objectOf(value []byte) (string, bool) {
	_, value, _ = splitExpiry(value)
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

// vacant reports whether key holds no record Load would return: one past
// its expiry (stale names its object, "" when none), one referencing an
// object that is gone (its TTL ended a moment before the key's, the
// object being written first), or none, the key gone itself since Create
// found it (revision 0, which Update takes as "no key"); with the key's
// revision.
func (s taskStore) vacant(ctx context.Context, key string) (revision uint64, vacant bool, stale string, err error) {
	e, err := s.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return 0, true, "", nil
	}
	if err != nil {
		return 0, false, "", err
	}
	object, ok := objectOf(e.Value())
	if expired(e.Value()) {
		return e.Revision(), true, object, nil
	}
	if !ok {
		return e.Revision(), false, "", nil
	}
	_, err = s.records.GetInfo(ctx, object)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return e.Revision(), true, "", nil
	}
	return e.Revision(), false, "", err
}

// remove deletes the record past its expiry that key holds at revision
// (value): the key, unless it changed meanwhile, and its object. A
// failure leaves them to the buckets' TTL; Load and Create treat the
// record as gone all the same. The deletes are bounded by ctx: Load, a
// read, does not outlive its context for them (what is left is deleted
// by the next Create of the id, or the TTL).
func (s taskStore) remove(ctx context.Context, key string, revision uint64, value []byte) {
	dctx, cancel := context.WithTimeout(ctx, dropTimeout)
	defer cancel()
	_ = s.kv.Delete(dctx, key, jetstream.LastRevision(revision))
	if object, ok := objectOf(value); ok && object != "" {
		_ = s.records.Delete(dctx, object)
	}
}

// settle ends a write of a value referencing object ("" is none) to key
// that answered err. The error may hide a write that was stored (a lost
// reply), so the key is read back before the object is dropped: holding
// the reference, the write took and settle answers nil; unreadable, the
// object is left to the object store's TTL.
func (s taskStore) settle(ctx context.Context, key, object string, err error) error {
	if err == nil || object == "" {
		return err
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dropTimeout)
	defer cancel()
	e, gerr := s.kv.Get(rctx, key)
	switch {
	case gerr == nil:
		if ref, ok := objectOf(e.Value()); ok && ref == object {
			return nil
		}
	case !errors.Is(gerr, jetstream.ErrKeyNotFound):
		return err
	}
	s.drop(ctx, object)
	return err
}

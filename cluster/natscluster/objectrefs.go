package natscluster

import "sync"

// objectRefs remembers which object the records this process read last
// referenced (key and revision), so that a Swap replacing one of them
// deletes its object without reading the record again first. It holds
// records in the object store only, which are rare, and at most
// maxObjectRefs of them: past that it starts over, and what it forgot
// expires with the object store's TTL.
type objectRefs struct {
	mu   sync.Mutex
	refs map[string]objectRef
}

type objectRef struct {
	revision uint64
	object   string
}

// maxObjectRefs bounds objectRefs.
const maxObjectRefs = 1024

// note records that key's record at revision is in object.
func (o *objectRefs) note(key string, revision uint64, object string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.refs == nil || len(o.refs) >= maxObjectRefs {
		o.refs = map[string]objectRef{}
	}
	o.refs[key] = objectRef{revision, object}
}

// replaced forgets key and returns the object its record at revision
// referenced, "" when not known: the caller has just replaced that record.
func (o *objectRefs) replaced(key string, revision uint64) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	ref, ok := o.refs[key]
	delete(o.refs, key)
	if !ok || ref.revision != revision {
		return ""
	}
	return ref.object
}

package argcheck

import (
	"reflect"
	"strconv"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// A map argument gets one entry per member of its object, or the call is
// refused: a member name that is not the canonical text of the key type
// ("01", "+1", "-0" for an integer key) or that a key type's UnmarshalText
// turns into the key of another member would fill an entry already
// filled, and a validated member would silently be lost.

// keyError is a member name of an object decoded into a Go map that does
// not name a key of its own.
type keyError struct {
	pointer string // of the member: the map's pointer and the member name
	key     string // the member name
	why     string
}

func (e *keyError) Error() string {
	return "json: member " + strconv.Quote(e.key) + " of " + e.pointer + " " + e.why
}

// problem is the refusal of the arguments the error makes.
func (e *keyError) problem() Problem {
	return Problem{Pointer: e.pointer, Keyword: "propertyNames", Message: "member name " + strconv.Quote(e.key) + " " + e.why}
}

// keyProblem is a keyError for member name key of the map being decoded.
func (d *tapeDecoder) keyProblem(key, why string) error {
	return &keyError{pointer: d.path.pointer() + "/" + escape(key), key: key, why: why}
}

// mapKey converts member name node m to a key of type kt; an invalid
// value (the problem saved) when the name is no key of kt or not its
// canonical text.
func (d *tapeDecoder) mapKey(t *jsonscan.Tape, m int, kt reflect.Type) (reflect.Value, error) {
	if reflect.PointerTo(kt).Implements(textUnmarshaler) {
		kv := reflect.New(kt)
		if err := d.store(t.Raw(m), t.AppendText(make([]byte, 0, len(t.Raw(m))), m), kv, true); err != nil {
			return reflect.Value{}, err
		}
		return kv.Elem(), nil
	}
	s := t.Text(m)
	kv := reflect.New(kt).Elem()
	switch kt.Kind() {
	case reflect.String:
		kv.SetString(s)
		return kv, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || kv.OverflowInt(n) {
			d.save(typeError("number "+s, kt))
			return reflect.Value{}, nil
		}
		if strconv.FormatInt(n, 10) != s {
			d.save(d.keyProblem(s, "is not the canonical text of an integer key (write "+strconv.Quote(strconv.FormatInt(n, 10))+"): two members could name one key"))
			return reflect.Value{}, nil
		}
		kv.SetInt(n)
		return kv, nil
	default:
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil || kv.OverflowUint(n) {
			d.save(typeError("number "+s, kt))
			return reflect.Value{}, nil
		}
		if strconv.FormatUint(n, 10) != s {
			d.save(d.keyProblem(s, "is not the canonical text of an integer key (write "+strconv.Quote(strconv.FormatUint(n, 10))+"): two members could name one key"))
			return reflect.Value{}, nil
		}
		kv.SetUint(n)
		return kv, nil
	}
}

// keySet remembers the keys of a map decoded from an object whose member
// names may decode to one key: those of a key type with its own
// UnmarshalText. Other keys are the member names themselves (a string
// key; an object's names are distinct) or their canonical text (an
// integer key), so they need no set.
type keySet struct {
	seen map[any]struct{}
}

func newKeySet(kt reflect.Type) keySet {
	if reflect.PointerTo(kt).Implements(textUnmarshaler) {
		return keySet{seen: map[any]struct{}{}}
	}
	return keySet{}
}

// add notes key; false if an earlier member gave it already.
func (s keySet) add(key reflect.Value) bool {
	if s.seen == nil {
		return true
	}
	k := key.Interface()
	if _, dup := s.seen[k]; dup {
		return false
	}
	s.seen[k] = struct{}{}
	return true
}

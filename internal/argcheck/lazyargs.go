package argcheck

import (
	"bytes"
	"errors"
	"reflect"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
)

// Large arguments, an element at a time.
//
// The arguments of a large message are parsed by jsonscan.ParseLazy: an
// array of 64 KiB or more stays on the tape as one node, and its elements
// are parsed a window at a time, onto a tape a few thousand nodes long
// that the next window reuses. So a 10 MB array of objects, whose whole
// tape would be about one and a half times its bytes, is validated and
// decoded beside the message with a few kilobytes more, the decoded value
// being the tool's own.
//
// The checker validates the rest of the arguments first, as it would the
// whole, and leaves each lazy array's items for later (lazyDefer); then
// the decoder fills the value, and when it meets a lazy array it reads its
// windows: each element is checked against the items schemas the checker
// left, with the shape's edits of its window, and decoded into its place
// while no problem has been found (after one, the elements are only
// checked, so that every problem is reported, as the whole would be). The
// lazy arrays the decoder did not read (or all, when the rest already had
// problems) are read and checked at the end: every byte of the arguments
// is parsed once.
//
// Whatever the element-wise reading cannot decide exactly as the whole
// tape would — a lazy array under "not", "anyOf" or "oneOf", or under
// "const", "enum" or "uniqueItems", a number beyond the limits, a syntax
// error, an Unmarshaler over a lazy array — gives the lazy path up
// (errLazyFallback) before it has decided anything, and the arguments are
// parsed whole and handled as before: same verdicts, same messages.

// lazyMin is the size of arguments decodeLarge parses lazily, and of the
// arrays it keeps off their tape (a variable for the tests).
var lazyMin = jsonscan.LazyArrayMin

// errLazyFallback gives up the element-wise path: the caller parses the
// arguments whole.
var errLazyFallback = errors.New("argcheck: arguments to be parsed whole")

// lazyDefer is what checkNative leaves of a tape of jsonscan.ParseLazy:
// the items schemas of each lazy array (one per schema that met it: a
// "$ref", an "allOf" branch), and whether the lazy path must be given up.
type lazyDefer struct {
	byNode   map[int][]deferral
	fallback bool
}

// deferral is one items schema a lazy array's elements must match, and
// the array's instance location.
type deferral struct {
	items *nativeSchema
	path  []pathTok
}

// allows reports whether the checker may go on at node i against s: not
// when the verdict there needs the elements of a lazy array within i now
// (then the lazy path is given up).
func (l *lazyDefer) allows(c *checker, s *nativeSchema, t *tape, i int) bool {
	if !t.LazyWithin(i) {
		return true
	}
	if c.quiet > 0 || c.branch > 0 || s.hasConst || s.hasEnum || s.unique {
		l.fallback = true
		return false
	}
	return true
}

// later records that lazy array arr's elements must match items.
func (l *lazyDefer) later(c *checker, items *nativeSchema, arr int) {
	l.byNode[arr] = append(l.byNode[arr], deferral{items: items, path: append([]pathTok(nil), c.path...)})
}

// lazyRun is one decoding of a tape of jsonscan.ParseLazy: the items left
// for later, the items shapes of the lazy arrays, the problems so far.
type lazyRun struct {
	defers   map[int][]deferral
	shapes   map[int]*shape
	probs    []Problem
	decoding bool // no problem so far: elements are decoded as they are checked
	visited  map[int]bool
	c        checker // checks every element
}

// element checks element e of window wt, the lazy array's k-th, against
// def and appends its problems, unsorted, to probs.
func (c *checker) element(def deferral, wt *tape, e int, edits map[int]*objEdit, k int, probs []Problem) []Problem {
	c.main, c.edits, c.probs, c.quiet, c.branch = wt, edits, probs, 0, 0
	c.path = append(append(c.path[:0], def.path...), pathTok{node: -1, index: k})
	c.validate(def.items, wt, e)
	probs = c.probs
	c.main, c.edits, c.probs = nil, nil, nil
	return probs
}

// decodeLarge is DecodeOwnedInto for arguments of at least
// jsonscan.LazyArrayMin bytes into rv's zero value, through
// jsonscan.ParseLazy; done is false when they are to be parsed whole
// (smaller ones, a schema outside the native checker, a refusal the lazy
// path leaves to the whole parse to word), and rv is then still zero.
func (d *TypeDecoder) decodeLarge(args []byte, src Source, rv reflect.Value) (done bool, err error) {
	if len(args) < lazyMin || d.v.native == nil || !rv.Elem().IsZero() {
		return false, nil
	}
	trimmed := bytes.Trim(args, " \t\r\n")
	if string(trimmed) == "null" {
		return false, nil
	}
	var t *tape
	var perr *jsonscan.SyntaxError
	if len(trimmed) == len(args) && lazyMin == jsonscan.LazyArrayMin {
		t, perr = jsonscan.ParseLazySpans(trimmed, maxDepth, src.Spans)
	} else {
		t, perr = jsonscan.ParseLazyMin(trimmed, maxDepth, lazyMin)
	}
	if perr != nil {
		return false, nil
	}
	defer t.Release()
	t.SetOwner(src.Owner)
	if t.LazyArrays() == nil {
		// No large array: the whole tape, already parsed.
		if p := numberLimitProblem(t); p != nil {
			return true, &ValidationError{Problems: []Problem{*p}}
		}
		return true, d.decodeParsed(t, rv)
	}
	if err := d.decodeLazy(t, rv); !errors.Is(err, errLazyFallback) {
		return true, err
	}
	rv.Elem().SetZero()
	return false, nil
}

// decodeLazy is decodeParsed on t, a tape of jsonscan.ParseLazy with lazy
// arrays, into rv's zero value; errLazyFallback when the arguments must be
// parsed whole instead (rv may then hold part of them).
func (d *TypeDecoder) decodeLazy(t *tape, rv reflect.Value) error {
	v := d.v
	if v.native == nil || oversizedNumber(t, 0) >= 0 {
		return errLazyFallback
	}
	w := editWalk{lazy: map[int]*shape{}}
	v.shape.editNode(t, 0, 0, &w)
	later := &lazyDefer{byNode: map[int][]deferral{}}
	probs := checkFrom(v.native, t, 0, w.out, nil, later, nil)
	if later.fallback {
		return errLazyFallback
	}
	r := &lazyRun{defers: later.byNode, shapes: w.lazy, probs: probs, decoding: len(probs) == 0, visited: map[int]bool{}}
	var decodeErr error
	if r.decoding {
		root := d.rootOf()
		dd := tapeDecoder{root: root, lazy: r}
		if err := dd.value(t, 0, v.shape, rv.Elem(), root.plain); err != nil {
			decodeErr = dd.context(err)
		} else {
			decodeErr = dd.saved
		}
		if dd.abort != nil || errors.Is(decodeErr, errLazyFallback) {
			return errLazyFallback
		}
	}
	for _, i := range t.LazyArrays() {
		if r.visited[i] {
			continue
		}
		if err := r.elements(t, i, nil); errors.Is(err, errLazyFallback) {
			return err
		}
	}
	if len(r.probs) > 0 {
		return &ValidationError{Problems: sortProblems(r.probs)}
	}
	if decodeErr != nil {
		return decodeProblem(decodeErr)
	}
	return nil
}

// elements reads lazy array i of t a window at a time: each element is
// checked against the items schemas left for it and, while no problem has
// been found, handed to each (element node e on window wt, index k); nil
// each only checks. An error of each ends the decoding (not the checking)
// and is returned at the end.
func (r *lazyRun) elements(t *tape, i int, each func(wt *tape, e, k int) error) error {
	r.visited[i] = true
	items, defs := r.shapes[i], r.defers[i]
	w := t.Windows(i)
	defer w.Release()
	var eachErr error
	for w.Next() {
		wt := w.Tape()
		if oversizedNumber(wt, 0) >= 0 {
			return errLazyFallback
		}
		var ew editWalk
		for e := wt.FirstElement(0); items != nil && e >= 0; e = wt.NextElement(0, e) {
			items.editNode(wt, e, w.Depth(), &ew)
		}
		k := w.First()
		for e := wt.FirstElement(0); e >= 0; e = wt.NextElement(0, e) {
			for _, def := range defs {
				r.probs = r.c.element(def, wt, e, ew.out, k, r.probs)
			}
			if len(r.probs) > 0 {
				r.decoding = false
			}
			if r.decoding && each != nil {
				if err := each(wt, e, k); err != nil {
					if errors.Is(err, errLazyFallback) {
						return err
					}
					eachErr, r.decoding = err, false
				}
			}
			k++
		}
	}
	if w.Err() != nil {
		return errLazyFallback
	}
	return eachErr
}

// lazyArray decodes lazy array i into v (a slice, an array or an empty
// interface; the Unmarshalers were dealt with by the caller), its elements
// with the items shape.
func (d *tapeDecoder) lazyArray(t *tape, i int, items *shape, v reflect.Value) error {
	r := d.lazy
	switch v.Kind() {
	case reflect.Interface:
		if v.NumMethod() != 0 {
			d.save(typeError("array", v.Type()))
			return nil
		}
		a := make([]any, 0, t.Len(i))
		err := r.elements(t, i, func(wt *tape, e, _ int) error {
			a = append(a, d.anyValue(wt, e, items))
			return nil
		})
		v.Set(reflect.ValueOf(a))
		return err
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), t.Len(i), t.Len(i)))
	case reflect.Array:
	default:
		d.save(typeError("array", v.Type()))
		return nil
	}
	plainElem := plainType(v.Type().Elem())
	return r.elements(t, i, func(wt *tape, e, k int) error {
		if k >= v.Len() {
			return nil // an array's extra elements are dropped, as encoding/json drops them
		}
		return d.value(wt, e, items, v.Index(k), plainElem)
	})
}

package argcheck

import (
	"bytes"
	"encoding/json"
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
// whole, and leaves each lazy array's items schemas for later (lazyDefer).
// Then, for a Go type whose decoding runs no code of its own, the decoder
// fills the value, and when it meets a lazy array it reads its windows:
// each element is checked against the items schemas the checker left,
// with the shape's edits of its window, and decoded into its place while
// no problem has been found (after one, the elements are only checked, so
// that every problem is reported as the whole would report it, and the
// value is left zero as the whole leaves it); the lazy arrays the decoder
// did not read are checked at the end. For a type with an Unmarshaler
// somewhere, or arguments the rest already refuses, every element is
// checked first and decoded on a second reading of the windows: user code
// runs only on arguments that passed, and once. Every byte of the
// arguments is parsed (once, or twice for the second kind), never held as
// one tape.
//
// Whatever the element-wise reading cannot decide exactly as the whole
// tape would — a lazy array under "not", "anyOf" or "oneOf", or under
// "const", "enum" or "uniqueItems", a number beyond the limits, a syntax
// error — gives the lazy path up (errLazyFallback), with the value zero
// again, and the arguments are parsed whole and handled as before: same
// verdicts, same messages. Only a syntax error or a number beyond the
// limits in the elements gives it up after something was decoded, and then
// only for a type that runs no code while decoding.

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
	checked  bool // every element was checked beforehand: elements only decodes
	visited  map[int]bool
	c        checker // checks every element
	// dec is the decoder; floatProbs the problems of the elements whose
	// numbers, as the floats dec made of them, no longer pass
	// (recheckElement).
	dec        *tapeDecoder
	floatProbs []Problem
	// reader is shown each lazy array's first reading (Source.Reader),
	// until one is given up (lost: nothing more is shown, and Done is told
	// the reading is not complete).
	reader *readerDone
	lost   bool
}

// element checks element e of window wt, the lazy array's k-th, against
// items and appends its problems, unsorted, to probs. path is the array's
// instance location and one token for the element, whose index element
// sets; it returns path (the checker may have grown it).
func (c *checker) element(items *nativeSchema, wt *tape, e int, edits map[int]*objEdit, path []pathTok, k int, probs []Problem) ([]Problem, []pathTok) {
	path[len(path)-1].index = k
	c.main, c.edits, c.probs, c.quiet, c.branch, c.path = wt, edits, probs, 0, 0, path
	c.validate(items, wt, e)
	probs, path = c.probs, c.path[:len(path)]
	c.main, c.edits, c.probs, c.path = nil, nil, nil, nil
	return probs, path
}

// decodeLarge is DecodeOwnedInto for arguments of at least
// jsonscan.LazyArrayMin bytes into rv's zero value, through
// jsonscan.ParseLazy; done is false when they are to be parsed whole
// (smaller ones, a schema outside the native checker, a refusal the lazy
// path leaves to the whole parse to word), and rv is then still zero.
func (d *TypeDecoder) decodeLarge(args []byte, src Source, rv reflect.Value, rd *readerDone) (done bool, err error) {
	if len(args) < jsonscan.LazyMin() || d.v.native == nil || !rv.Elem().IsZero() {
		return false, nil
	}
	trimmed := bytes.Trim(args, " \t\r\n")
	if string(trimmed) == "null" {
		return false, nil
	}
	var t *tape
	var perr *jsonscan.SyntaxError
	if len(trimmed) == len(args) {
		t, perr = jsonscan.ParseLazySpans(trimmed, maxDepth, src.Spans)
	} else {
		t, perr = jsonscan.ParseLazy(trimmed, maxDepth)
	}
	if perr != nil {
		return false, nil
	}
	defer t.Release()
	t.SetOwner(src.Owner)
	if t.LazyArrays() == nil {
		// No large array: the whole tape, already parsed.
		if err := rd.finish(false); err != nil {
			return true, err
		}
		if p := numberLimitProblem(t); p != nil {
			return true, &ValidationError{Problems: []Problem{*p}}
		}
		return true, d.decodeParsed(t, rv)
	}
	if err := d.decodeLazy(t, rv, rd); !errors.Is(err, errLazyFallback) {
		return true, err
	}
	rv.Elem().SetZero()
	return false, nil
}

// decodeLazy is decodeParsed on t, a tape of jsonscan.ParseLazy with lazy
// arrays, into rv's zero value; errLazyFallback when the arguments must be
// parsed whole instead (rv is then zero again). On any other error rv holds
// what the whole path would leave in it: nothing when the schema refuses
// the arguments, what was decoded before a type error of decoding.
//
// For a type whose decoding runs no code of its own (no Unmarshaler
// anywhere in it: rootType.userCode), each element is checked and decoded
// in one reading of the windows. Otherwise every element is checked first,
// as the whole tape is before anything is decoded, and the windows are
// read again to decode: an Unmarshaler runs only on arguments that passed,
// and once.
func (d *TypeDecoder) decodeLazy(t *tape, rv reflect.Value, rd *readerDone) error {
	v := d.v
	if v.native == nil || oversizedNumber(t, 0) >= 0 {
		return errLazyFallback
	}
	if rd != nil {
		rd.r.Start(t)
	}
	w := editWalk{lazy: map[int]*shape{}}
	v.shape.editNode(t, 0, 0, &w)
	later := &lazyDefer{byNode: map[int][]deferral{}}
	probs := checkFrom(v.native, t, 0, w.out, nil, later, nil)
	if later.fallback {
		return errLazyFallback
	}
	r := &lazyRun{defers: later.byNode, shapes: w.lazy, probs: probs, visited: map[int]bool{}, reader: rd}
	root := d.rootOf()
	if len(probs) > 0 || root.userCode {
		if err := r.checkRest(t); err != nil {
			return err
		}
		if err := rd.finish(!r.lost); err != nil {
			return err
		}
		if len(r.probs) > 0 {
			return &ValidationError{Problems: sortProblems(r.probs)}
		}
		r.checked, r.visited = true, map[int]bool{}
	}
	r.decoding = true
	dd := tapeDecoder{root: root, lazy: r}
	r.dec = &dd
	var decodeErr error
	if err := dd.value(t, 0, v.shape, rv.Elem(), root.plain); err != nil {
		decodeErr = dd.context(err)
	} else {
		decodeErr = dd.saved
	}
	if dd.abort != nil || errors.Is(decodeErr, errLazyFallback) {
		rv.Elem().SetZero()
		return errLazyFallback
	}
	if !r.checked {
		if err := r.checkRest(t); err != nil {
			rv.Elem().SetZero()
			return err
		}
		if err := rd.finish(!r.lost); err != nil {
			rv.Elem().SetZero()
			return err
		}
		if len(r.probs) > 0 {
			rv.Elem().SetZero()
			return &ValidationError{Problems: sortProblems(r.probs)}
		}
	}
	if decodeErr != nil {
		return decodeProblem(decodeErr)
	}
	if nums := floatsOn(t, dd.floats); nums != nil || r.floatProbs != nil {
		// As recheckFloats on the whole tape: the rest again here, the
		// elements were (recheckElement).
		probs := r.floatProbs
		if nums != nil {
			probs = explain(recheckNative(v.native, t, 0, w.out, nil, &lazyDefer{byNode: map[int][]deferral{}}, nums, probs), nums)
		}
		if len(probs) > 0 {
			rv.Elem().SetZero()
			return &ValidationError{Problems: sortProblems(probs)}
		}
	}
	return nil
}

// checkRest checks the elements of the lazy arrays of t not read yet;
// errLazyFallback when one cannot be decided element-wise.
func (r *lazyRun) checkRest(t *tape) error {
	for _, i := range t.LazyArrays() {
		if r.visited[i] {
			continue
		}
		if err := r.elements(t, i, nil); errors.Is(err, errLazyFallback) {
			return err
		}
	}
	return nil
}

// elements reads lazy array i of t a window at a time: each element is
// checked against the items schemas left for it (unless every element
// was checked already: r.checked) and, while no problem has been found,
// handed to each (element node e on window wt, index k); nil each only
// checks. An error of each ends the decoding (not the checking) and is
// returned at the end.
func (r *lazyRun) elements(t *tape, i int, each func(wt *tape, e, k int) error) error {
	r.visited[i] = true
	items, defs := r.shapes[i], r.defers[i]
	if r.checked {
		defs = nil
	}
	// Each items schema's instance location, the element's index last:
	// set once, only the index changes from element to element.
	paths := make([][]pathTok, len(defs))
	for k, def := range defs {
		paths[k] = append(append(make([]pathTok, 0, len(def.path)+8), def.path...), pathTok{node: -1})
	}
	var reader LazyReader // shown this first reading
	if !r.checked && !r.lost && r.reader != nil && !r.reader.done {
		reader = r.reader.r
	}
	ended := false
	if reader != nil {
		reader.ArrayStart(i)
		defer func() {
			if !ended {
				r.lost = true // given up: the reader is shown nothing more
			}
		}()
	}
	w := t.Windows(i)
	defer w.Release()
	var eachErr error
	for w.Next() {
		wt := w.Tape()
		if reader != nil {
			for e := wt.FirstElement(0); e >= 0; e = wt.NextElement(0, e) {
				reader.Element(wt, e)
			}
		}
		var ew editWalk
		if !r.checked {
			if oversizedNumber(wt, 0) >= 0 {
				return errLazyFallback
			}
			for e := wt.FirstElement(0); items != nil && e >= 0; e = wt.NextElement(0, e) {
				items.editNode(wt, e, w.Depth(), &ew)
			}
		}
		k := w.First()
		for e := wt.FirstElement(0); e >= 0; e = wt.NextElement(0, e) {
			for d, def := range defs {
				r.probs, paths[d] = r.c.element(def.items, wt, e, ew.out, paths[d], k, r.probs)
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
				if r.dec != nil && len(r.dec.floats) > 0 {
					r.recheckElement(i, wt, e, w.Depth(), k)
				}
			}
			k++
		}
	}
	if w.Err() != nil {
		return errLazyFallback
	}
	if reader != nil {
		reader.ArrayEnd(i)
		ended = true
	}
	return eachErr
}

// recheckElement checks element e of window wt, lazy array i's k-th at
// depth, again against the items schemas left for it, with the numbers
// the decoder noted in it replaced by their floats (floatcheck.go), and
// keeps the problems in floatProbs: they refuse the arguments once they
// are all decoded, as recheckFloats refuses the whole tape's. The notes
// of the window are dropped (it is about to be reused).
func (r *lazyRun) recheckElement(i int, wt *tape, e, depth, k int) {
	d := r.dec
	nums := floatsOn(wt, d.floats)
	if nums != nil {
		var ew editWalk
		if items := r.shapes[i]; items != nil {
			items.editNode(wt, e, depth, &ew)
		}
		r.c.nums = nums
		for _, def := range r.defers[i] {
			path := append(append(make([]pathTok, 0, len(def.path)+1), def.path...), pathTok{node: -1})
			var probs []Problem
			probs, _ = r.c.element(def.items, wt, e, ew.out, path, k, nil)
			r.floatProbs = append(r.floatProbs, explain(probs, nums)...)
		}
		r.c.nums = nil
	}
	kept := d.floats[:0]
	for _, n := range d.floats {
		if n.t != wt {
			kept = append(kept, n)
		}
	}
	d.floats = kept
}

// lazyArray decodes lazy array i into v (a slice, an array or an empty
// interface; the Unmarshalers were dealt with by the caller), its elements
// with the items shape.
func (d *tapeDecoder) lazyArray(t *tape, i int, items *shape, v reflect.Value) error {
	r := d.lazy
	if !r.decoding {
		if r.checked {
			return nil
		}
		return r.elements(t, i, nil) // only checked: nothing is made for it
	}
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
		depth := d.path.depth
		d.path.pushIndex(k)
		err := d.pointed(d.value(wt, e, items, v.Index(k), plainElem))
		d.path.depth = depth
		return err
	})
}

// hasUserCode reports whether decoding into t may run code of its own: a
// json.Unmarshaler or encoding.TextUnmarshaler (at either receiver)
// anywhere in t, through pointers, struct fields, slice, array and map
// elements and map keys. An interface holds nothing in a zero value
// (decodeLarge decodes only into one), so it runs none. Called once per
// TypeDecoder (rootOf keeps the answer), so it keeps no cache of its own.
func hasUserCode(t reflect.Type) bool {
	return userCodeIn(t, map[reflect.Type]bool{})
}

func userCodeIn(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	for _, u := range []reflect.Type{t, reflect.PointerTo(t)} {
		if u.Implements(jsonUnmarshaler) || u.Implements(textUnmarshaler) {
			return true
		}
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return userCodeIn(t.Elem(), seen)
	case reflect.Map:
		return userCodeIn(t.Key(), seen) || userCodeIn(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if userCodeIn(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// lazyRaw is rawFor on a tape of jsonscan.ParseLazy, for node i whose
// subtree holds a lazy array: its own bytes when the shape changes nothing
// in it (its lazy arrays' elements read to tell), else the shaped value
// encoded, as rawFor encodes it, built with the elements of its windows.
func (r *lazyRun) lazyRaw(t *tape, i int, sh *shape) ([]byte, error) {
	changed, err := r.changes(sh, t, i, 0)
	if err != nil || !changed {
		return t.Raw(i), err
	}
	v, err := lazyValue(t, i)
	if err != nil {
		return nil, err
	}
	sh.apply(v)
	return json.Marshal(v)
}

// changes is shape.changes on a tape of jsonscan.ParseLazy: the elements
// of its lazy arrays are read a window at a time.
func (r *lazyRun) changes(n *shape, t *tape, i, depth int) (bool, error) {
	if n == nil || depth > maxDepth {
		return false, nil
	}
	switch {
	case t.Lazy(i):
		if n.items == nil {
			return false, nil
		}
		w := t.Windows(i)
		defer w.Release()
		for w.Next() {
			wt := w.Tape()
			for e := wt.FirstElement(0); e >= 0; e = wt.NextElement(0, e) {
				if n.items.changes(wt, e, depth+1) {
					return true, nil
				}
			}
		}
		if w.Err() != nil {
			return false, errLazyFallback
		}
		return false, nil
	case !t.LazyWithin(i):
		return n.changes(t, i, depth), nil
	case t.Kind(i) == kindArray:
		for e := t.FirstElement(i); e >= 0; e = t.NextElement(i, e) {
			if c, err := r.changes(n.items, t, e, depth+1); c || err != nil {
				return c, err
			}
		}
		return false, nil
	}
	// An object holding a lazy array: shape.changes' test of its members
	// (the same order), its values read lazily.
	for k := range n.props {
		p := &n.props[k]
		v, ok := t.Member(i, p.name)
		switch {
		case ok && p.dropNull && t.Kind(v) == kindNull:
			return true, nil
		case !ok && p.hasDefault:
			return true, nil
		case ok:
			if c, err := r.changes(p.child, t, v, depth+1); c || err != nil {
				return c, err
			}
		}
	}
	if n.extra != nil {
		for m := t.FirstMember(i); m >= 0; m = t.NextMember(i, m) {
			if n.additionalMember(t, m) {
				if c, err := r.changes(n.extra, t, m+1, depth+1); c || err != nil {
					return c, err
				}
			}
		}
	}
	return false, nil
}

// lazyValue is Tape.Value on a tape of jsonscan.ParseLazy, its lazy
// arrays' elements read a window at a time.
func lazyValue(t *tape, i int) (any, error) {
	switch {
	case t.Lazy(i):
		a := make([]any, 0, t.Len(i))
		w := t.Windows(i)
		defer w.Release()
		for w.Next() {
			wt := w.Tape()
			for e := wt.FirstElement(0); e >= 0; e = wt.NextElement(0, e) {
				a = append(a, wt.Value(e))
			}
		}
		if w.Err() != nil {
			return nil, errLazyFallback
		}
		return a, nil
	case !t.LazyWithin(i):
		return t.Value(i), nil
	case t.Kind(i) == kindArray:
		a := make([]any, 0, t.Len(i))
		for e := t.FirstElement(i); e >= 0; e = t.NextElement(i, e) {
			v, err := lazyValue(t, e)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		return a, nil
	}
	m := make(map[string]any, t.Len(i))
	for k := t.FirstMember(i); k >= 0; k = t.NextMember(i, k) {
		v, err := lazyValue(t, k+1)
		if err != nil {
			return nil, err
		}
		m[t.Text(k)] = v
	}
	return m, nil
}

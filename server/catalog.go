package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/internal/smallmap"
)

// entry is what every registered tool, prompt, resource and resource
// template carries for its catalog.
type entry struct {
	key string // the name (tools, prompts), URI or URI template
	def []byte // the encoded definition
	err error  // the construction error; such an item is never registered
	// scopes are the OAuth scopes a caller's token needs to use the item
	// (auth.go); none: any caller.
	scopes []string
	kind   ItemKind // for Options.Visible
}

func (e *entry) base() *entry { return e }

// item is a registered item: a pointer to a struct that embeds entry.
type item interface {
	comparable
	base() *entry
}

// itemKind names an item kind in add's errors.
type itemKind struct {
	noun string // "tool": "server: tool 2 is the zero Tool (use NewTool)"
	typ  string // "Tool"
	key  string // "tool name": `server: duplicate tool name "x"`
}

// checkItems reports why items cannot be added: a zero value (nil), a
// construction error, or two items of one key.
func checkItems[T item](kind itemKind, items []T) []error {
	var errs []error
	var zero T
	seen := map[string]bool{}
	for i, x := range items {
		if x == zero {
			errs = append(errs, fmt.Errorf("server: %s %d is the zero %s (use New%[3]s)", kind.noun, i, kind.typ))
			continue
		}
		e := x.base()
		switch {
		case e.err != nil:
			errs = append(errs, fmt.Errorf("server: %w", e.err))
		case seen[e.key]:
			errs = append(errs, fmt.Errorf("server: duplicate %s %q", kind.key, e.key))
		}
		seen[e.key] = true
	}
	return errs
}

// impls returns the items inside the exported wrappers (Tool, Prompt, ...).
func impls[W any, T item](wrappers []W, impl func(W) T) []T {
	items := make([]T, len(wrappers))
	for i, w := range wrappers {
		items[i] = impl(w)
	}
	return items
}

// namedSet is an immutable snapshot of registered items: in registration
// order, and by key.
//
// Adding new keys is amortised O(1) per item, so registering N tools one
// at a time is linear, not quadratic: a set and the sets extended from it
// share one list array and one index. A new set appends to the list past
// its parent's length (readers of the parent never look past it), and
// records new keys in the shared index with their position, which a set
// ignores beyond its own length. Only the newest set of a chain may
// extend it; a replacement or removal, or extending an older set, builds
// a fresh set. Lookups read a plain map built when the set is built and,
// for keys added since, the shared index; it is rebuilt once the additions
// outnumber the map, so that stays amortised O(1) too.
type namedSet[T item] struct {
	list  []T
	byKey map[string]int // positions of the keys when the set was built
	// keys is byKey as a smallmap.List when it holds at most smallKeys
	// keys (a scan instead of the map's hash and probe). Shared as byKey
	// is.
	keys  smallmap.List[int]
	added *sync.Map // key → position, for keys appended since (shared)
	// extendable is true while no set has been extended from this one.
	extendable atomic.Bool
	nAdded     int // keys in added that are within list

	allOnce sync.Once
	all     []byte // the definitions as one JSON array, built on first use
}

func newNamedSet[T item](list []T) *namedSet[T] {
	set := &namedSet[T]{list: list, byKey: make(map[string]int, len(list)), added: new(sync.Map)}
	for i, x := range list {
		set.byKey[x.base().key] = i
	}
	if len(list) <= smallKeys {
		keys := make([]string, len(list))
		for i, x := range list {
			keys[i] = x.base().key
		}
		set.keys = smallmap.New(set.byKey, keys, smallKeys)
	}
	set.extendable.Store(true)
	return set
}

// smallKeys is the most keys a namedSet also holds as a slice (keys).
const smallKeys = 16

// built is the position of key among the keys the set was built with.
func (set *namedSet[T]) built(key string) (int, bool) {
	if set.keys == nil {
		i, ok := set.byKey[key]
		return i, ok
	}
	return set.keys.Find(key)
}

// lookup returns the item keyed key, or the zero T.
func (set *namedSet[T]) lookup(key string) T {
	if i, ok := set.position(key); ok {
		return set.list[i]
	}
	var zero T
	return zero
}

// joined returns every definition as one JSON array.
func (set *namedSet[T]) joined() []byte {
	set.allOnce.Do(func() { set.all = joinArray(set.defs()) })
	return set.all
}

// with returns the set plus items, each replacing the item of its key in
// place or else appended.
func (set *namedSet[T]) with(items []T) *namedSet[T] {
	replaces := false
	for _, x := range items {
		var zero T
		if set.lookup(x.base().key) != zero {
			replaces = true
			break
		}
	}
	// A small set is built afresh (at most smallKeys items copied), so
	// that its lookups scan keys instead of reading the shared index.
	small := len(set.list)+len(items) <= smallKeys
	if replaces || small || set.nAdded+len(items) > len(set.byKey)+64 || !set.extendable.CompareAndSwap(true, false) {
		list := slices.Clone(set.list)
		index := make(map[string]int, len(list)+len(items))
		for i, x := range list {
			index[x.base().key] = i
		}
		for _, x := range items {
			if i, ok := index[x.base().key]; ok {
				list[i] = x
			} else {
				index[x.base().key] = len(list)
				list = append(list, x)
			}
		}
		return newNamedSet(list)
	}
	// New keys only, and this set is the newest of its chain: extend.
	next := &namedSet[T]{list: append(set.list, items...), byKey: set.byKey, keys: set.keys, added: set.added, nAdded: set.nAdded + len(items)}
	for i, x := range items {
		next.added.Store(x.base().key, len(set.list)+i)
	}
	next.extendable.Store(true)
	return next
}

// without returns the set less the items keyed by keys, and whether that
// removed any.
func (set *namedSet[T]) without(keys []string) (*namedSet[T], bool) {
	list := slices.DeleteFunc(slices.Clone(set.list), func(x T) bool { return slices.Contains(keys, x.base().key) })
	if len(list) == len(set.list) {
		return set, false
	}
	return newNamedSet(list), true
}

func (set *namedSet[T]) defs() [][]byte {
	defs := make([][]byte, len(set.list))
	for i, x := range set.list {
		defs[i] = x.base().def
	}
	return defs
}

// page answers a list method (tools/list, prompts/list, resources/list,
// resources/templates/list) with the page the request's cursor selects, as
// the result member field.
func (set *namedSet[T]) page(s *Server, r *request, p *requestParams, field string) (any, error) {
	set = set.visible(r.ctx, s)
	cursor, err := cursorOf(p)
	if err != nil {
		return nil, err
	}
	if s.pageSize <= 0 && cursor == "" {
		return rawResult(s.appendList(make([]byte, 0, len(set.joined())+160), r, field, set.joined(), "")), nil
	}
	page, next, err := set.paginate(field, cursor, s.pageSize)
	if err != nil {
		return nil, err
	}
	defs := make([][]byte, len(page))
	for i, x := range page {
		defs[i] = x.base().def
	}
	all := joinArray(defs)
	return rawResult(s.appendList(make([]byte, 0, len(all)+160), r, field, all, next)), nil
}

// paginate returns the page of the set that cursor selects in the list
// named list (the result member: "tools", "prompts", "resources",
// "resourceTemplates") and the next cursor ("" at the end).
func (set *namedSet[T]) paginate(list, cursor string, pageSize int) ([]T, string, error) {
	return paginateKeyed(list, set.list, func(x T) string { return x.base().key }, set.position, cursor, pageSize)
}

// position returns where the item keyed key is in the set's list.
func (set *namedSet[T]) position(key string) (int, bool) {
	if i, ok := set.built(key); ok {
		return i, true
	}
	if set.nAdded == 0 {
		return 0, false
	}
	if v, ok := set.added.Load(key); ok && v.(int) < len(set.list) {
		return v.(int), true
	}
	return 0, false
}

// decodePage decodes every definition of the page of set that cursor
// selects in list (as page does) into D and returns it and the next cursor
// (nil at the end): the list methods of the mcp handler interfaces.
func decodePage[D any, T item](set *namedSet[T], list string, cursor *string, pageSize int) ([]D, *string, error) {
	var from string
	if cursor != nil {
		from = *cursor
	}
	items, next, err := set.paginate(list, from, pageSize)
	if err != nil {
		return nil, nil, err
	}
	page := make([]D, len(items))
	for i, x := range items {
		if err := json.Unmarshal(x.base().def, &page[i]); err != nil {
			return nil, nil, err
		}
	}
	if next == "" {
		return page, nil, nil
	}
	return page, &next, nil
}

// registry holds a snapshot S of registered items that writers replace
// under a lock, so calls and lists read it without locks; the first add
// makes the feature offered, and every change notifies listeners.
type registry[S any] struct {
	s      *Server
	change change
	mu     sync.Mutex // serializes writers
	set    atomic.Pointer[S]
	on     atomic.Bool
}

func (g *registry[S]) init(s *Server, change change, empty *S) {
	g.s, g.change = s, change
	g.set.Store(empty)
}

func (g *registry[S]) offered() bool { return g.on.Load() }

// update stores next(current snapshot) when it reports a change (and marks
// the feature offered when add is set), then notifies listeners; it
// reports whether anything changed.
func (g *registry[S]) update(add bool, next func(old *S) (*S, bool)) bool {
	g.mu.Lock()
	set, changed := next(g.set.Load())
	if changed {
		g.set.Store(set)
	}
	if add {
		g.on.Store(true)
	}
	g.mu.Unlock()
	if changed {
		g.s.subs.publish(g.change, "")
	}
	return changed
}

// catalog is the registry of one item kind (tools, prompts).
type catalog[T item] struct {
	registry[namedSet[T]]
	kind itemKind
}

func (c *catalog[T]) init(s *Server, change change, kind itemKind) {
	c.registry.init(s, change, newNamedSet[T](nil))
	c.kind = kind
}

// get returns the item keyed key, or the zero T.
func (c *catalog[T]) get(key string) T { return c.set.Load().lookup(key) }

// add registers items, replacing ones of the same key; two items of one key
// in the same call, an invalid item or a zero one are errors and nothing is
// registered.
func (c *catalog[T]) add(items []T) error {
	if errs := checkItems(c.kind, items); len(errs) > 0 {
		return errors.Join(errs...)
	}
	c.update(true, func(old *namedSet[T]) (*namedSet[T], bool) { return old.with(items), true })
	return nil
}

// remove unregisters items by key; it reports whether any was removed.
func (c *catalog[T]) remove(keys []string) bool {
	return c.update(false, func(old *namedSet[T]) (*namedSet[T], bool) { return old.without(keys) })
}

// joinArray encodes pre-encoded values as a JSON array, in a buffer of
// its exact size.
func joinArray(items [][]byte) []byte {
	n := 2
	for _, it := range items {
		n += len(it) + 1
	}
	return appendArray(make([]byte, 0, n), items)
}

// appendArray appends elems as a JSON array, each element as is.
func appendArray[E ~[]byte](dst []byte, elems []E) []byte {
	dst = append(dst, '[')
	for i, e := range elems {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, e...)
	}
	return append(dst, ']')
}

// cursorOf reads params.cursor (absent, null or a string).
func cursorOf(p *requestParams) (string, error) {
	if jsonscan.IsNullOrAbsent(p.cursor) {
		return "", nil
	}
	c, ok := jsonscan.String(p.cursor)
	if !ok {
		return "", invalidParams("params.cursor must be a string")
	}
	return c, nil
}

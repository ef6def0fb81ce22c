package jsonscan

// ValidDeep is Valid without the nesting limit: a container nested deeper
// than MaxNesting is checked by a loop whose stack is one bit a level
// (object or array) rather than by recursion, so any depth costs at most
// one bit of memory per byte of input and no goroutine stack. A message
// whose only fault in encoding/json's eyes is its depth is still one JSON
// value whose envelope (its id) can be read and answered.
func ValidDeep(data []byte) bool {
	v := validator{data: data, deep: true}
	v.space()
	if !v.value(0) {
		return false
	}
	v.space()
	return v.i == len(data)
}

// bitStack is a stack of booleans, one bit each.
type bitStack struct {
	words []uint64
	n     int
}

func (s *bitStack) push(b bool) {
	if s.n%64 == 0 {
		s.words = append(s.words, 0)
	}
	if b {
		s.words[s.n/64] |= 1 << (s.n % 64)
	} else {
		s.words[s.n/64] &^= 1 << (s.n % 64)
	}
	s.n++
}

func (s *bitStack) top() bool { return s.words[(s.n-1)/64]&(1<<((s.n-1)%64)) != 0 }

func (s *bitStack) pop() {
	s.n--
	if s.n%64 == 0 {
		s.words = s.words[:s.n/64]
	}
}

// deepContainer checks the container at v.i, and all it holds, without
// recursion (ValidDeep past MaxNesting).
func (v *validator) deepContainer() bool {
	var open bitStack // true: an object
	for {
		// A value is expected at v.i.
		v.space()
		if v.i >= len(v.data) {
			return false
		}
		if c := v.data[v.i]; c == '{' || c == '[' {
			closing := byte(']')
			if c == '{' {
				closing = '}'
			}
			v.i++
			v.space()
			if v.i < len(v.data) && v.data[v.i] == closing {
				v.i++
			} else {
				open.push(c == '{')
				if c == '{' && !v.key() {
					return false
				}
				continue
			}
		} else if !v.value(0) { // a scalar: no recursion
			return false
		}
		// After a value: close containers until a comma asks for the next.
		for next := false; !next; {
			if open.n == 0 {
				return true
			}
			v.space()
			if v.i >= len(v.data) {
				return false
			}
			obj := open.top()
			switch c := v.data[v.i]; {
			case c == ',':
				v.i++
				v.space()
				if obj && !v.key() {
					return false
				}
				next = true
			case obj && c == '}', !obj && c == ']':
				v.i++
				open.pop()
			default:
				return false
			}
		}
	}
}

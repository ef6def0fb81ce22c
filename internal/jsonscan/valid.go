package jsonscan

// MaxNesting is encoding/json's nesting limit, which Valid keeps.
const MaxNesting = 10000

// Valid reports whether data is one JSON value, exactly as json.Valid does
// (the same grammar and nesting limit; UTF-8 is checked separately, see
// utf8.Valid), without json.Valid's state machine: under load json.Valid was
// half of jsonrpc.Decode's CPU time. FuzzValid checks the two agree.
func Valid(data []byte) bool {
	v := validator{data: data}
	v.space()
	if !v.value(0) {
		return false
	}
	v.space()
	return v.i == len(data)
}

type validator struct {
	data []byte
	i    int
	// rec, when set, records the value's large arrays (spanRecorder).
	rec *spanRecorder
	// deep: containers past MaxNesting are checked (ValidDeep), not refused.
	deep bool
}

func (v *validator) space() {
	for v.i < len(v.data) && IsSpace(v.data[v.i]) {
		v.i++
	}
}

func (v *validator) value(depth int) bool {
	if v.i >= len(v.data) {
		return false
	}
	switch c := v.data[v.i]; {
	case c == '{':
		return v.container(depth+1, '}')
	case c == '[':
		return v.container(depth+1, ']')
	case c == '"':
		return v.string()
	case c == 't':
		return v.literal("true")
	case c == 'f':
		return v.literal("false")
	case c == 'n':
		return v.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return v.number()
	}
	return false
}

func (v *validator) literal(word string) bool {
	if len(v.data)-v.i < len(word) || string(v.data[v.i:v.i+len(word)]) != word {
		return false
	}
	v.i += len(word)
	return true
}

// container reads an object (end '}': members are "key": value) or an
// array (end ']': elements are values) starting at its opening bracket.
func (v *validator) container(depth int, end byte) bool {
	if depth > MaxNesting {
		return v.deep && v.deepContainer()
	}
	start := v.i
	v.i++ // '{' or '['
	v.space()
	if v.i < len(v.data) && v.data[v.i] == end {
		v.i++
		if v.rec != nil && end == ']' {
			v.rec.add(start, v.i, 0)
		}
		return true
	}
	for count := 1; ; count++ {
		v.space()
		if end == '}' && !v.key() {
			return false
		}
		if !v.value(depth) {
			return false
		}
		v.space()
		if v.i >= len(v.data) {
			return false
		}
		switch v.data[v.i] {
		case ',':
			v.i++
		case end:
			v.i++
			if v.rec != nil && end == ']' {
				v.rec.add(start, v.i, count)
			}
			return true
		default:
			return false
		}
	}
}

// key reads an object member's key and colon, and the space after them.
func (v *validator) key() bool {
	if v.i >= len(v.data) || v.data[v.i] != '"' || !v.string() {
		return false
	}
	v.space()
	if v.i >= len(v.data) || v.data[v.i] != ':' {
		return false
	}
	v.i++
	v.space()
	return true
}

func (v *validator) string() bool {
	d := v.data
	for i := v.i + 1; i < len(d); i++ {
		switch c := d[i]; {
		case c == '"':
			v.i = i + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			i++
			if i >= len(d) {
				return false
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d) {
					return false
				}
				for _, h := range d[i+1 : i+5] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return false
					}
				}
				i += 4
			default:
				return false
			}
		}
	}
	return false
}

// number reads a number (numberEnd).
func (v *validator) number() bool {
	end, ok := numberEnd(v.data, v.i)
	if ok {
		v.i = end
	}
	return ok
}

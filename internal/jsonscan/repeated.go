package jsonscan

// RepeatedName finds a member name repeated in some object of the JSON
// value data, at any depth, in one pass over data: the time is linear in
// len(data) whatever the nesting (a scan that skips each nested value again
// at every level is quadratic in the depth). Names are compared unescaped
// and exact, as Members compares them. A malformed value reports what it
// found before the fault.
func RepeatedName(data []byte) (string, bool) {
	type frame struct {
		object bool
		names  []string            // the names read, up to smallObject
		large  map[string]struct{} // all names, past smallObject
	}
	var stack []frame
	expectKey := false
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			end := skipString(data, i)
			if end < 0 {
				return "", false
			}
			if expectKey && len(stack) > 0 {
				expectKey = false
				key, ok := Unquote(data[i+1 : end-1])
				if !ok {
					return "", false
				}
				f := &stack[len(stack)-1]
				if f.large != nil {
					if _, seen := f.large[key]; seen {
						return key, true
					}
					f.large[key] = struct{}{}
				} else {
					for _, n := range f.names {
						if n == key {
							return key, true
						}
					}
					f.names = append(f.names, key)
					if len(f.names) > smallObject {
						f.large = make(map[string]struct{}, 2*len(f.names))
						for _, n := range f.names {
							f.large[n] = struct{}{}
						}
						f.names = nil
					}
				}
			}
			i = end - 1
		case '{':
			stack = append(stack, frame{object: true})
			expectKey = true
		case '[':
			stack = append(stack, frame{})
			expectKey = false
		case '}', ']':
			if len(stack) == 0 {
				return "", false
			}
			stack[len(stack)-1] = frame{}
			stack = stack[:len(stack)-1]
			expectKey = false
		case ',':
			expectKey = len(stack) > 0 && stack[len(stack)-1].object
		case ':':
			expectKey = false
		}
	}
	return "", false
}

package jsonscan

// numberEnd reads a number in JSON's grammar,
//
//	-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
//
// starting at data[i], which must be '-' or a digit. It returns the index
// just past the number, or the index of the first byte that breaks the
// grammar and false. Valid and Tree both read numbers with it.
func numberEnd(data []byte, i int) (int, bool) {
	if i < len(data) && data[i] == '-' {
		i++
	}
	digits := func() bool {
		n := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		return i > n
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case !digits():
		return i, false
	}
	if i < len(data) && data[i] == '.' {
		i++
		if !digits() {
			return i, false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if !digits() {
			return i, false
		}
	}
	return i, true
}

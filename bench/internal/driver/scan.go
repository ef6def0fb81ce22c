package driver

import "bytes"

// members are the raw values of a message's top-level "id", "method" and
// "error" members (nil when absent).
type members struct{ id, method, err []byte }

// topMembers scans a JSON object's top-level members without decoding the
// values: strings are skipped with bytes.IndexByte, nested values by
// bracket depth. ok is false if msg is not an object it can walk; it does
// not validate the JSON beyond that (replies are verified once, in full,
// by verifyResponse or Call.Check).
func topMembers(msg []byte) (m members, ok bool) {
	i := skipSpace(msg, 0)
	if i >= len(msg) || msg[i] != '{' {
		return m, false
	}
	i++
	for {
		i = skipSpace(msg, i)
		if i < len(msg) && msg[i] == '}' {
			return m, true
		}
		if i >= len(msg) || msg[i] != '"' {
			return m, false
		}
		end := skipString(msg, i)
		if end < 0 {
			return m, false
		}
		key := msg[i+1 : end-1]
		i = skipSpace(msg, end)
		if i >= len(msg) || msg[i] != ':' {
			return m, false
		}
		i = skipSpace(msg, i+1)
		vend := skipValue(msg, i)
		if vend < 0 {
			return m, false
		}
		switch string(key) {
		case "id":
			m.id = msg[i:vend]
		case "method":
			m.method = msg[i:vend]
		case "error":
			m.err = msg[i:vend]
		}
		i = skipSpace(msg, vend)
		if i < len(msg) && msg[i] == ',' {
			i++
			continue
		}
		if i < len(msg) && msg[i] == '}' {
			return m, true
		}
		return m, false
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] ('"'), or -1.
func skipString(b []byte, i int) int {
	i++
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return -1
		}
		i += j
		backslashes := 0
		for k := i - 1; k >= 0 && b[k] == '\\'; k-- {
			backslashes++
		}
		i++
		if backslashes%2 == 0 {
			return i
		}
	}
}

// skipValue returns the index after the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				if i = skipString(b, i); i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	}
	for i < len(b) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(b[i])) {
		i++
	}
	return i
}

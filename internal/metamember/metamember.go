// Package metamember adds members to the _meta object of an encoded JSON
// object (a result, a notification's or request's params) without
// decoding it: trace context written into messages the server sends.
package metamember

import (
	"github.com/mcpgen/mcpgen/internal/jsonscan"
	"github.com/mcpgen/mcpgen/jsonrpc"
)

// Member is one string member to add.
type Member struct{ Key, Value string }

// Add returns obj with members put first in its _meta object (a _meta is
// created when obj has none). obj is returned unchanged when it is not a
// JSON object, when its _meta is not an object, or when its _meta already
// has one of the keys (what the sender wrote wins). obj is not modified.
func Add(obj []byte, members []Member) []byte {
	if len(members) == 0 {
		return obj
	}
	metaAt, taken := -1, false
	ok := jsonscan.EachMember(obj, func(key, value []byte) {
		if !jsonscan.KeyEquals(key, "_meta") {
			return
		}
		if jsonscan.Kind(value) != '{' {
			taken = true
			return
		}
		jsonscan.EachMember(value, func(k, _ []byte) {
			for _, m := range members {
				if jsonscan.KeyEquals(k, m.Key) {
					taken = true
				}
			}
		})
		metaAt = offset(obj, value)
	})
	if !ok || taken {
		return obj
	}
	out := make([]byte, 0, len(obj)+64*len(members))
	if metaAt >= 0 {
		at := metaAt + 1 // after the _meta's '{'
		out = append(out, obj[:at]...)
		out = appendMembers(out, members)
		if rest := jsonscan.TrimSpace(obj[at:]); len(rest) > 0 && rest[0] != '}' {
			out = append(out, ',')
		}
		return append(out, obj[at:]...)
	}
	open := jsonscan.SkipSpace(obj, 0) + 1 // after obj's '{'
	out = append(out, obj[:open]...)
	out = append(out, `"_meta":{`...)
	out = appendMembers(out, members)
	out = append(out, '}')
	if rest := jsonscan.TrimSpace(obj[open:]); len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, obj[open:]...)
}

// AddToMember returns msg (a JSON object) with members added, as Add does,
// to the object value of its member name (a request's "params"); msg is
// returned unchanged when it has no such object member.
func AddToMember(msg []byte, name string, members []Member) []byte {
	at, end := -1, -1
	jsonscan.EachMember(msg, func(key, value []byte) {
		if at < 0 && jsonscan.KeyEquals(key, name) && jsonscan.Kind(value) == '{' {
			at = offset(msg, value)
			end = at + len(value)
		}
	})
	if at < 0 {
		return msg
	}
	inner := Add(msg[at:end:end], members)
	out := make([]byte, 0, len(msg)+len(inner)-(end-at))
	out = append(out, msg[:at]...)
	out = append(out, inner...)
	return append(out, msg[end:]...)
}

// offset is where sub, a subslice of data, starts in data.
func offset(data, sub []byte) int { return cap(data) - cap(sub) }

func appendMembers(dst []byte, members []Member) []byte {
	for i, m := range members {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonrpc.AppendString(dst, m.Key)
		dst = append(dst, ':')
		dst = jsonrpc.AppendString(dst, m.Value)
	}
	return dst
}

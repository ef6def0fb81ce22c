package jsonrpc

import "testing"

// TestDecodeMalformedNotificationKindIndependentOfDuplicates: the fix
// "a malformed notification keeps its kind" (doc.go: a message with a
// string "method" and no "id" member that breaks the rules "still has Kind
// KindNotification ... a notification gets no response, malformed or
// not") decides the kind at different points on its two paths: after the
// "jsonrpc" checks on the ordinary path, before them when a member is
// repeated (decodeBytes' hasDup branch). So the same notification with a
// wrong or missing "jsonrpc" is KindInvalid (a receiver answers it: stdio
// writes an id-less -32600 line) or KindNotification (not answered)
// depending only on whether some unrelated member is also repeated: one
// message class, two verdicts. Each pair below must get the same Kind.
func TestDecodeMalformedNotificationKindIndependentOfDuplicates(t *testing.T) {
	pairs := [][2]string{
		{`{"jsonrpc":"1.0","method":"notifications/progress"}`,
			`{"jsonrpc":"1.0","method":"notifications/progress","x":1,"x":2}`},
		{`{"method":"notifications/progress"}`,
			`{"method":"notifications/progress","x":1,"x":2}`},
		{`{"jsonrpc":2,"method":"notifications/progress","params":{}}`,
			`{"jsonrpc":2,"method":"notifications/progress","params":{},"params":{}}`},
	}
	for _, p := range pairs {
		a, errA := Decode([]byte(p[0]))
		b, errB := Decode([]byte(p[1]))
		if errA == nil || errB == nil {
			t.Fatalf("want both refused: %v, %v", errA, errB)
		}
		if a.Kind != b.Kind {
			t.Errorf("%s -> kind %v (%s)\n%s -> kind %v (%s)\nwant one kind for both (doc.go: a string method and no id is KindNotification, malformed or not)",
				p[0], a.Kind, errA.Message, p[1], b.Kind, errB.Message)
		}
	}
}

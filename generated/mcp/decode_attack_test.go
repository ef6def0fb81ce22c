package mcp_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpgen/mcpgen/generated/mcp"
)

// generator/doc.go: "format byte: []byte (base64 on the wire)"; the
// schema types data and blob as strings ("type": "string", "format":
// "byte"). The decoders read these members with encoding/json into a
// []byte, which also takes a JSON array of numbers: a message the schema
// refuses is accepted, and re-encoded as a different value (a base64
// string), so two readers of one message disagree on its type.
func TestAttackByteFieldRefusesArray(t *testing.T) {
	cases := []struct{ def, in string }{
		{"ImageContent", `{"type":"image","data":[104,105],"mimeType":"image/png"}`},
		{"AudioContent", `{"type":"audio","data":[],"mimeType":"audio/wav"}`},
		{"BlobResourceContents", `{"uri":"file:///b","blob":[0,255]}`},
		{"ReadResourceResult", `{"contents":[{"uri":"file:///b","blob":[1,2,3]}],"resultType":"complete"}`},
	}
	for _, c := range cases {
		v, err := mcp.DecodeNamed(c.def, []byte(c.in))
		if err == nil {
			out, _ := json.Marshal(v)
			t.Errorf("%s accepted %s (a byte member that is an array, not a base64 string); encodes as %s", c.def, c.in, out)
		}
	}
}

// The schema gives LoggingMessageNotificationParams.data no type ("Any
// JSON serializable value is allowed here"; schema.ts: data: unknown):
// null is a value it takes, as generator/doc.go says of "the boolean
// schema true: any value". The decoder refuses it ("data: must not be
// null"), so a valid notifications/message is rejected.
func TestAttackLogDataNullAccepted(t *testing.T) {
	for _, c := range []struct{ def, in string }{
		{"LoggingMessageNotificationParams", `{"level":"info","data":null}`},
		{"LoggingMessageNotification", `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":null}}`},
	} {
		if _, err := mcp.DecodeNamed(c.def, []byte(c.in)); err != nil {
			t.Errorf("%s refused %s, which the schema accepts: %v", c.def, c.in, err)
		}
	}
}

// split refuses a member named twice: "A member named twice is an error
// (one message, one reading)", and does so for _meta
// (`{"_meta":{"k":1,"k":2}}` is "duplicate member"). Members decoded with
// encoding/json instead (structuredContent, capability maps, elicitation
// content, any JSON value) take the last occurrence silently, so one
// message has two readings: the first occurrence for another reader, the
// last here.
func TestAttackNestedDuplicateMemberRefused(t *testing.T) {
	cases := []struct{ def, in string }{
		{"CallToolResult", `{"content":[],"structuredContent":{"ok":false,"ok":true}}`},
		{"ClientCapabilities", `{"experimental":{"a":{},"a":{"x":1}}}`},
		{"ClientCapabilities", `{"extensions":{"io.example/x":{"k":1,"k":2}}}`},
		{"ElicitResult", `{"action":"accept","content":{"email":"a@example.com","email":"b@example.com"}}`},
	}
	for _, c := range cases {
		if v, err := mcp.DecodeNamed(c.def, []byte(c.in)); err == nil {
			out, _ := json.Marshal(v)
			t.Errorf("%s accepted a repeated member: %s\n  read as %s", c.def, c.in, out)
		}
	}
}

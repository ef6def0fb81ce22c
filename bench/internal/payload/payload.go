// Package payload holds the large-payload workloads every benchmark server
// implements the same way: a binary resource of a given size
// (resources/read), a tool whose text result has a given size, and tools
// taking a large string or a large nested object as arguments. Content is
// deterministic and built once per size, so servers only pay for moving it.
package payload

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Tool and resource names.
const (
	// ResultTool answers {"size":N} with a text result of N bytes.
	ResultTool = "blob_result"
	// StringTool takes {"data":"…"} and answers "len=<bytes of data>".
	StringTool = "echo_string"
	// NestedTool takes {"items":[{name, value, tags}, …]} and answers
	// "items=<count>".
	NestedTool = "echo_nested"
	// TouchTool adds a tool to its server (so every listen stream gets
	// notifications/tools/list_changed) and answers TouchedText.
	TouchTool   = "touch_tools"
	TouchedText = "touched"
	// ConfirmTool takes NestedTool's arguments over two rounds: the first
	// answers input_required with one elicitation under ConfirmKey, the
	// second (with the answer and the request state) answers like
	// NestedTool.
	ConfirmTool    = "confirm_nested"
	ConfirmKey     = "confirm"
	ConfirmMessage = "Count the items?"
	// ConfirmState is the request state of the peers whose API leaves it to
	// the handler (mcpgen seals its own).
	ConfirmState = "step-1"
	// BlobScheme prefixes the blob resources: BlobScheme + Label(n).
	BlobScheme = "bench://blob/"
)

// Sizes are the payload sizes of the rows (1 KB, 1 MB, 10 MB).
var Sizes = []int{1 << 10, 1 << 20, 10 << 20}

// Label names a size: 1k, 1m, 10m.
func Label(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + "m"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + "k"
	}
	return strconv.Itoa(n)
}

// BlobURI is the URI of the blob resource of n bytes.
func BlobURI(n int) string { return BlobScheme + Label(n) }

var (
	mu    sync.Mutex
	blobs = map[int][]byte{}
	texts = map[int]string{}
)

// Blob returns the n-byte binary content of BlobURI(n) (shared; do not modify).
func Blob(n int) []byte {
	mu.Lock()
	defer mu.Unlock()
	if b, ok := blobs[n]; ok {
		return b
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i>>8)
	}
	blobs[n] = b
	return b
}

// Text returns the n-byte text result of ResultTool: printable ASCII that
// JSON does not escape.
func Text(n int) string {
	mu.Lock()
	defer mu.Unlock()
	if t, ok := texts[n]; ok {
		return t
	}
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ.,"
	var b strings.Builder
	b.Grow(n)
	for i := range n {
		b.WriteByte(alphabet[(i*31+i/64)%len(alphabet)])
	}
	texts[n] = b.String()
	return texts[n]
}

// Item is one element of NestedTool's arguments.
type Item struct {
	Name  string   `json:"name"`
	Value int      `json:"value"`
	Tags  []string `json:"tags"`
}

// itemJSON is one item as the driver writes it; every item has the same length.
func itemJSON(i int) string {
	return fmt.Sprintf(`{"name":"item-%07d","value":%d,"tags":["alpha","beta"]}`, i, i%1000)
}

// NestedItems is how many items make NestedArguments(n) about n bytes.
func NestedItems(n int) int { return max(n/(len(itemJSON(0))+1), 1) }

// NestedArguments returns NestedTool's arguments of about n bytes.
func NestedArguments(n int) json.RawMessage {
	var b strings.Builder
	b.Grow(n + 64)
	b.WriteString(`{"items":[`)
	for i := range NestedItems(n) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(itemJSON(i))
	}
	b.WriteString(`]}`)
	return json.RawMessage(b.String())
}

// StringArguments returns StringTool's arguments with an n-byte string.
func StringArguments(n int) json.RawMessage {
	return json.RawMessage(`{"data":"` + Text(n) + `"}`)
}

// ResultArguments returns ResultTool's arguments for an n-byte result.
func ResultArguments(n int) json.RawMessage {
	return json.RawMessage(`{"size":` + strconv.Itoa(n) + `}`)
}

// LenText is StringTool's answer for data of n bytes.
func LenText(n int) string { return "len=" + strconv.Itoa(n) }

// ItemsText is NestedTool's answer for n items.
func ItemsText(n int) string { return "items=" + strconv.Itoa(n) }

// Base64 is the blob as the wire carries it (for servers whose API takes
// base64 text).
func Base64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// Schemas of the tools' arguments, for servers that take a schema as JSON.
const (
	ResultSchema = `{"type":"object","properties":{"size":{"type":"integer","minimum":0,"maximum":67108864}},"required":["size"]}`
	StringSchema = `{"type":"object","properties":{"data":{"type":"string"}},"required":["data"]}`
	NestedSchema = `{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"value":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}},"required":["name","value","tags"]}}},"required":["items"]}`
)

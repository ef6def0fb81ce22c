package main

import "encoding/base64"

// The binary payloads of the fixtures: the 1×1 red PNG and the silent WAV
// of the TypeScript reference everything server.
const (
	pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
	wavBase64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
)

// pngBytes and wavBytes are the decoded payloads; the generated types
// carry bytes and encode them as base64 themselves.
var (
	pngBytes = mustDecode(pngBase64)
	wavBytes = mustDecode(wavBase64)
)

func mustDecode(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic("everything: bad base64 constant: " + err.Error())
	}
	return b
}

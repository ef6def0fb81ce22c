package httpwire

import (
	"errors"
	"testing"
)

func TestEncodeHeaderValue(t *testing.T) {
	// Examples from "Value Encoding" (streamable-http.mdx, encoding examples table).
	tests := []struct{ in, want string }{
		{"us-west1", "us-west1"},                                      // plain ASCII stays plain
		{"Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="},              // non-ASCII MUST be Base64
		{" padded ", "=?base64?IHBhZGRlZCA=?="},                       // leading/trailing spaces MUST be Base64
		{"line1\nline2", "=?base64?bGluZTEKbGluZTI=?="},               // control characters MUST be Base64
		{"=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="}, // sentinel look-alike MUST be Base64
		{"us west 1", "us west 1"},                                    // inner spaces are header-safe
		{"\tindented", "=?base64?CWluZGVudGVk?="},                     // tab is a control character
		{"", ""},                   // empty value is plain
		{"=?base64?", "=?base64?"}, // prefix alone is not the sentinel form
	}
	for _, tt := range tests {
		if got := EncodeHeaderValue(tt.in); got != tt.want {
			t.Errorf("EncodeHeaderValue(%q) = %q, want %q", tt.in, got, tt.want)
		}
		back, err := DecodeHeaderValue(EncodeHeaderValue(tt.in))
		if err != nil || back != tt.in {
			t.Errorf("round trip of %q = %q, %v", tt.in, back, err)
		}
	}
}

func TestDecodeHeaderValue(t *testing.T) {
	tests := []struct {
		name, in, want string
		err            error
	}{
		// "Value Encoding": servers MUST decode sentinel values before comparing.
		{"valid base64", "=?base64?SGVsbG8=?=", "Hello", nil},
		// conformance ServerRejectsInvalidBase64Padding: missing padding is invalid.
		{"missing padding", "=?base64?SGVsbG8?=", "", ErrInvalidBase64},
		// conformance ServerRejectsInvalidBase64Chars: non-alphabet characters.
		{"bad alphabet", "=?base64?SGVs!!!bG8=?=", "", ErrInvalidBase64},
		// conformance ServerLiteralMissingBase64Prefix/Suffix: no wrapper means literal.
		{"no prefix", "SGVsbG8=", "SGVsbG8=", nil},
		{"no suffix", "=?base64?SGVsbG8=", "=?base64?SGVsbG8=", nil},
		// Markers are case-sensitive and MUST be lowercase: otherwise literal.
		{"uppercase marker", "=?BASE64?SGVsbG8=?=", "=?BASE64?SGVsbG8=?=", nil},
		{"empty payload", "=?base64??=", "", nil},
		{"url alphabet", "=?base64?-_8=?=", "", ErrInvalidBase64},
		{"non-canonical bits", "=?base64?SGVsbG9=?=", "", ErrInvalidBase64},
		{"invalid utf-8 payload", "=?base64?/w==?=", "", ErrInvalidBase64},
		// RFC 9110 field values: visible ASCII, SP, HTAB only.
		{"raw non-ascii", "Hello, 世界", "", ErrInvalidHeaderChars},
		{"raw newline", "a\nb", "", ErrInvalidHeaderChars},
		{"tab allowed", "a\tb", "a\tb", nil},
	}
	for _, tt := range tests {
		got, err := DecodeHeaderValue(tt.in)
		if !errors.Is(err, tt.err) || got != tt.want {
			t.Errorf("%s: DecodeHeaderValue(%q) = %q, %v; want %q, %v", tt.name, tt.in, got, err, tt.want, tt.err)
		}
	}
}

package jsonenc

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

var numberType = reflect.TypeFor[json.Number]()

func appendQuote(b []byte, quoted bool) []byte {
	if quoted {
		b = append(b, '"')
	}
	return b
}

func boolEncoder(_ *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
	b = appendQuote(b, quoted)
	b = strconv.AppendBool(b, v.Bool())
	return appendQuote(b, quoted), nil
}

func intEncoder(_ *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
	b = appendQuote(b, quoted)
	b = strconv.AppendInt(b, v.Int(), 10)
	return appendQuote(b, quoted), nil
}

func uintEncoder(_ *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
	b = appendQuote(b, quoted)
	b = strconv.AppendUint(b, v.Uint(), 10)
	return appendQuote(b, quoted), nil
}

func float32Encoder(_ *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
	return appendFloat(b, v, 32, quoted)
}

func float64Encoder(_ *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
	return appendFloat(b, v, 64, quoted)
}

// appendFloat formats as encoding/json's floatEncoder: ES6 number
// formatting, 'e' below 1e-6 and from 1e21, "e-07" shortened to "e-7";
// NaN and ±Inf are unsupported values.
func appendFloat(b []byte, v reflect.Value, bits int, quoted bool) ([]byte, error) {
	f := v.Float()
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, &json.UnsupportedValueError{Value: v, Str: strconv.FormatFloat(f, 'g', -1, bits)}
	}
	b = appendQuote(b, quoted)
	if bits == 64 {
		if out, ok := appendShortDecimal(b, f); ok {
			return appendQuote(out, quoted), nil
		}
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b = strconv.AppendFloat(b, f, format, -1, bits)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return appendQuote(b, quoted), nil
}

func stringEncoder(_ *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
	if quoted {
		// The string's JSON, as a JSON string: escaped twice, the second
		// time without HTML escaping (nothing is left to escape).
		inner := appendString(nil, v.String(), true)
		return appendString(b, inner, false), nil
	}
	return appendString(b, v.String(), true), nil
}

// numberEncoder writes a json.Number as its literal ("" is 0); a string
// that is not a JSON number is an error, as in encoding/json.
func numberEncoder(_ *encState, b []byte, v reflect.Value, quoted bool) ([]byte, error) {
	s := v.String()
	if s == "" {
		s = "0"
	}
	if !isValidNumber(s) {
		return b, fmt.Errorf("json: invalid number literal %q", s)
	}
	b = appendQuote(b, quoted)
	b = append(b, s...)
	return appendQuote(b, quoted), nil
}

// isValidNumber reports whether s is a JSON number literal.
func isValidNumber(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '-' {
		if s = s[1:]; s == "" {
			return false
		}
	}
	switch {
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		s = s[1:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	default:
		return false
	}
	if len(s) >= 2 && s[0] == '.' && '0' <= s[1] && s[1] <= '9' {
		s = s[2:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			if s = s[1:]; s == "" {
				return false
			}
		}
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	return s == ""
}

func unsupportedTypeEncoder(_ *encState, b []byte, v reflect.Value, _ bool) ([]byte, error) {
	return b, &json.UnsupportedTypeError{Type: v.Type()}
}

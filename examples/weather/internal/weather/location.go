package weather

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxLocationLength is the longest accepted location, in characters.
const MaxLocationLength = 200

// coords is a parsed "lat,long" location.
type coords struct{ lat, lon float64 }

// name renders coordinates as "lat, long".
func (c coords) name() string { return formatCoord(c.lat) + ", " + formatCoord(c.lon) }

func formatCoord(v float64) string {
	if v == 0 {
		v = 0 // drop the sign of -0
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// normalizeLocation trims, collapses inner whitespace and case-folds loc.
// It rejects empty, overlong or control-character input.
func normalizeLocation(loc string) (string, error) {
	if !utf8.ValidString(loc) {
		return "", invalidf("location is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(loc); n > MaxLocationLength {
		return "", invalidf("location too long: %d characters (max %d)", n, MaxLocationLength)
	}
	fields := strings.Fields(loc)
	if len(fields) == 0 {
		return "", invalidf("location is empty")
	}
	for _, r := range loc {
		if unicode.IsControl(r) && !unicode.IsSpace(r) {
			return "", invalidf("location contains control character %q", r)
		}
	}
	return strings.ToLower(strings.Join(fields, " ")), nil
}

// parseCoords recognises "lat,long" (both parts decimal numbers). ok is false
// when loc is not of that shape (it is then a place name); err is set when it
// is, but a value is out of range.
func parseCoords(loc string) (c coords, ok bool, err error) {
	a, b, found := strings.Cut(loc, ",")
	if !found {
		return coords{}, false, nil
	}
	lat, okA := parseDecimal(a)
	lon, okB := parseDecimal(b)
	if !okA || !okB {
		return coords{}, false, nil
	}
	if lat < -90 || lat > 90 {
		return coords{}, true, invalidf("latitude %s out of range (must be between -90 and 90)", strings.TrimSpace(a))
	}
	if lon < -180 || lon > 180 {
		return coords{}, true, invalidf("longitude %s out of range (must be between -180 and 180)", strings.TrimSpace(b))
	}
	return coords{lat, lon}, true, nil
}

// parseDecimal accepts an optionally signed decimal number such as "-33.87"
// (no exponent, hex, inf or nan).
func parseDecimal(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	digits := 0
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '.' || (r == '+' || r == '-') && i == 0:
		default:
			return 0, false
		}
	}
	if digits == 0 || strings.Count(s, ".") > 1 {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// titleCase upper-cases the first letter of each space-separated word.
func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		r, size := utf8.DecodeRuneInString(w)
		words[i] = string(unicode.ToTitle(r)) + w[size:]
	}
	return strings.Join(words, " ")
}

// readLocation normalises a location and parses it as "lat,long" when it is
// one: the first step of every provider.
func readLocation(location string) (key string, c coords, isCoords bool, err error) {
	if key, err = normalizeLocation(location); err != nil {
		return "", coords{}, false, err
	}
	c, isCoords, err = parseCoords(key)
	return key, c, isCoords, err
}

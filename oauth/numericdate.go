package oauth

import (
	"fmt"
	"time"
)

// maxNumericDate bounds an accepted NumericDate, in seconds either side of
// the epoch: go-jose's bound (2^62), so both verifiers refuse the same
// dates. Past it the conversion to int64 and time.Time overflows and a
// date far in the future reads as one in the past.
const maxNumericDate = 1 << 62

// numericDate reads the date claim name (RFC 7519 NumericDate: seconds
// since the epoch): present is false when it is absent or null; an error
// wrapping server.ErrInvalidToken when it is not a number or out of range.
// A present date may be Go's zero time.Time (-62135596800 is
// 0001-01-01T00:00:00Z), so callers test present, never IsZero.
func numericDate(claims map[string]any, name string) (t time.Time, present bool, err error) {
	raw, ok := claims[name]
	if !ok || raw == nil {
		return time.Time{}, false, nil
	}
	f, isNumber := raw.(float64)
	if !isNumber || f >= maxNumericDate || f <= -maxNumericDate {
		return time.Time{}, false, fmt.Errorf("%w: %s %v is not a date in range", errInvalid, name, raw)
	}
	return time.Unix(int64(f), 0), true, nil
}

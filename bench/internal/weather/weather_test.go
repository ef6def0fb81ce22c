package weather

import "testing"

func TestText(t *testing.T) {
	for _, tc := range []struct{ loc, units, want string }{
		{"Paris", "metric", "Paris: 21.50 (metric)"},
		{"Paris", "imperial", "Paris: 70.70 (imperial)"},
		{"Oslo", "kelvin", "Oslo: 294.65 (kelvin)"},
	} {
		if got := Text(tc.loc, tc.units); got != tc.want {
			t.Errorf("Text(%q, %q) = %q, want %q", tc.loc, tc.units, got, tc.want)
		}
	}
}

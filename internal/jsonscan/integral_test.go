package jsonscan

import "testing"

func TestIsIntegralCountsZeroFractionsAsIntegers(t *testing.T) {
	for raw, want := range map[string]bool{
		"0": true, "-0": true, "100": true, "-7": true, "123456789012345678901234567890": true,
		"1.0": true, "100.0": true, "1e2": true, "1E+2": true, "-1.5e1": true, "100e-2": true,
		"0.0": true, "-0e5": true, "0.000e-9": true, "1.50e1": true, "1e999999999999999999999": true,
		"1.5": false, "1e-1": false, "10e-2": false, "0.1e1": true, "0.01e1": false,
		"1e-999999999999999999999": false, "": false, "-": false, "01": false, "1.": false,
		".5": false, "1e": false, "+1": false, `"1"`: false, "1 ": false, "true": false,
	} {
		if got := IsIntegral([]byte(raw)); got != want {
			t.Errorf("IsIntegral(%q) = %v, want %v", raw, got, want)
		}
	}
}

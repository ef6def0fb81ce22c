package weather

import (
	"errors"
	"testing"
)

func TestParseUnits(t *testing.T) {
	tests := []struct {
		in      string
		want    Units
		wantErr bool
	}{
		{"", Metric, false},
		{"  ", Metric, false},
		{"metric", Metric, false},
		{"Imperial", Imperial, false},
		{" KELVIN ", Kelvin, false},
		{"rankine", "", true},
		{"celsius", "", true},
	}
	for _, tc := range tests {
		got, err := ParseUnits(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseUnits(%q) = %q, %v; want %q, err=%v", tc.in, got, err, tc.want, tc.wantErr)
		}
		if err != nil {
			if !errors.Is(err, ErrInvalidInput) {
				t.Errorf("ParseUnits(%q) error %v does not match ErrInvalidInput", tc.in, err)
			}
			if want := `unknown units "` + tc.in + `" (want metric, imperial or kelvin)`; err.Error() != want {
				t.Errorf("error = %q, want %q", err, want)
			}
		}
	}
}

func TestUnitLabels(t *testing.T) {
	tests := []struct {
		u          Units
		temp, wind string
	}{
		{Metric, "°C", "km/h"},
		{Imperial, "°F", "mph"},
		{Kelvin, "K", "km/h"},
	}
	for _, tc := range tests {
		if got := tc.u.TemperatureUnit(); got != tc.temp {
			t.Errorf("%s.TemperatureUnit() = %q, want %q", tc.u, got, tc.temp)
		}
		if got := tc.u.WindSpeedUnit(); got != tc.wind {
			t.Errorf("%s.WindSpeedUnit() = %q, want %q", tc.u, got, tc.wind)
		}
	}
}

func TestConversions(t *testing.T) {
	tests := []struct {
		c                 float64
		metric, imp, kelv float64
	}{
		{0, 0, 32, 273.15},
		{100, 100, 212, 373.15},
		{-40, -40, -40, 233.15},
		{18.4, 18.4, 65.12, 291.55},
		{-273.15, -273.15, -459.67, 0},
		{37, 37, 98.6, 310.15},
	}
	for _, tc := range tests {
		if got := Metric.FromCelsius(tc.c); got != tc.metric {
			t.Errorf("metric(%v) = %v", tc.c, got)
		}
		if got := Imperial.FromCelsius(tc.c); got != tc.imp {
			t.Errorf("imperial(%v) = %v, want %v", tc.c, got, tc.imp)
		}
		if got := Kelvin.FromCelsius(tc.c); got != tc.kelv {
			t.Errorf("kelvin(%v) = %v, want %v", tc.c, got, tc.kelv)
		}
	}
	winds := []struct{ kmh, mph float64 }{{0, 0}, {100, 62.1371}, {15, 9.320565}, {1, 0.621371}}
	for _, w := range winds {
		if got := Imperial.FromKmh(w.kmh); got != w.mph {
			t.Errorf("mph(%v) = %v, want %v", w.kmh, got, w.mph)
		}
		if got := Metric.FromKmh(w.kmh); got != w.kmh {
			t.Errorf("metric wind(%v) = %v", w.kmh, got)
		}
		if got := Kelvin.FromKmh(w.kmh); got != w.kmh {
			t.Errorf("kelvin wind(%v) = %v", w.kmh, got)
		}
	}
}

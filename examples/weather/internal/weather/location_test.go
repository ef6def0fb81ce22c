package weather

import (
	"errors"
	"strings"
	"testing"
)

func TestParseCoords(t *testing.T) {
	tests := []struct {
		in       string
		isCoords bool
		wantErr  string
		lat, lon float64
		name     string
	}{
		{"48.8566,2.3522", true, "", 48.8566, 2.3522, "48.8566, 2.3522"},
		{" -33.87 , 151.21 ", true, "", -33.87, 151.21, "-33.87, 151.21"},
		{"0,0", true, "", 0, 0, "0, 0"},
		{"-0,-0", true, "", 0, 0, "0, 0"},
		{"90,180", true, "", 90, 180, "90, 180"},
		{"-90,-180", true, "", -90, -180, "-90, -180"},
		{"+45.5,.5", true, "", 45.5, 0.5, "45.5, 0.5"},
		{"91,0", true, "latitude 91 out of range (must be between -90 and 90)", 0, 0, ""},
		{"-90.0001,0", true, "latitude -90.0001 out of range", 0, 0, ""},
		{"0,180.5", true, "longitude 180.5 out of range (must be between -180 and 180)", 0, 0, ""},
		{"0,-181", true, "longitude -181 out of range", 0, 0, ""},
		{"paris", false, "", 0, 0, ""},
		{"paris, france", false, "", 0, 0, ""},
		{"12, main street", false, "", 0, 0, ""},
		{"1e2,3", false, "", 0, 0, ""},
		{"inf,0", false, "", 0, 0, ""},
		{"nan,nan", false, "", 0, 0, ""},
		{"0x10,1", false, "", 0, 0, ""},
		{"1.2.3,4", false, "", 0, 0, ""},
		{"-,5", false, "", 0, 0, ""},
		{"1,2,3", false, "", 0, 0, ""},
	}
	for _, tc := range tests {
		c, ok, err := parseCoords(tc.in)
		if ok != tc.isCoords {
			t.Errorf("parseCoords(%q) ok = %v, want %v", tc.in, ok, tc.isCoords)
			continue
		}
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, ErrInvalidInput) {
				t.Errorf("parseCoords(%q) err = %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseCoords(%q) unexpected error %v", tc.in, err)
			continue
		}
		if ok && (c.lat != tc.lat || c.lon != tc.lon || c.name() != tc.name) {
			t.Errorf("parseCoords(%q) = %+v %q, want %v,%v %q", tc.in, c, c.name(), tc.lat, tc.lon, tc.name)
		}
	}
}

func TestNormalizeLocation(t *testing.T) {
	tests := []struct {
		in, want, wantErr string
	}{
		{"  San   Francisco ", "san francisco", ""},
		{"PARIS", "paris", ""},
		{"Zürich", "zürich", ""},
		{"", "", "location is empty"},
		{" \t\n", "", "location is empty"},
		{strings.Repeat("a", MaxLocationLength+1), "", "location too long"},
		{"bad\x00name", "", "control character"},
		{"bad\xffname", "", "not valid UTF-8"},
	}
	for _, tc := range tests {
		got, err := normalizeLocation(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, ErrInvalidInput) {
				t.Errorf("normalizeLocation(%q) err = %v, want %q", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("normalizeLocation(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestTitleCase(t *testing.T) {
	if got := titleCase("san josé del cabo"); got != "San José Del Cabo" {
		t.Errorf("titleCase = %q", got)
	}
}

func TestConditions(t *testing.T) {
	tests := map[int]string{0: "clear sky", 2: "partly cloudy", 3: "overcast", 45: "fog", 63: "moderate rain",
		75: "heavy snowfall", 95: "thunderstorm", 99: "thunderstorm with heavy hail", 42: "unknown (WMO code 42)", -1: "unknown (WMO code -1)"}
	for code, want := range tests {
		if got := Conditions(code); got != want {
			t.Errorf("Conditions(%d) = %q, want %q", code, got, want)
		}
	}
}

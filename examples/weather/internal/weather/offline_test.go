package weather

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

var _ Provider = (*Offline)(nil)

func fixedClock(s string) func() time.Time {
	return func() time.Time {
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			panic(err)
		}
		return t
	}
}

func TestOfflineDeterministic(t *testing.T) {
	ctx := context.Background()
	o := &Offline{}
	base, err := o.Current(ctx, "San Francisco", Metric)
	if err != nil {
		t.Fatal(err)
	}
	for _, variant := range []string{"San Francisco", "  san   francisco ", "SAN FRANCISCO", "san\tfrancisco"} {
		got, err := NewOffline().Current(ctx, variant, Metric)
		if err != nil {
			t.Fatal(err)
		}
		if got != base {
			t.Errorf("Current(%q) = %+v, want %+v", variant, got, base)
		}
	}
	if base.Location != "San Francisco" || base.Latitude != 37.7749 || base.Longitude != -122.4194 {
		t.Errorf("known place resolved to %q %v,%v", base.Location, base.Latitude, base.Longitude)
	}
	if base.Source != SourceOffline || base.Units != Metric || base.TemperatureUnit != "°C" || base.WindSpeedUnit != "km/h" {
		t.Errorf("unexpected metadata %+v", base)
	}
	other, _ := o.Current(ctx, "Oslo", Metric)
	third, _ := o.Current(ctx, "Cairo", Metric)
	if other == base || other.Temperature == base.Temperature && other.Humidity == base.Humidity && third.Temperature == other.Temperature {
		t.Errorf("different locations give identical data: %+v %+v %+v", base, other, third)
	}
}

func TestOfflineUnknownNameIsTitleCased(t *testing.T) {
	r, err := (&Offline{}).Current(context.Background(), "  little   rock ", Metric)
	if err != nil {
		t.Fatal(err)
	}
	if r.Location != "Little Rock" {
		t.Errorf("Location = %q", r.Location)
	}
	if r.Latitude < -60 || r.Latitude > 70 || r.Longitude < -180 || r.Longitude > 180 {
		t.Errorf("implausible coordinates %v,%v", r.Latitude, r.Longitude)
	}
}

func TestOfflinePlausibleRanges(t *testing.T) {
	o := &Offline{}
	seenConditions := map[string]bool{}
	for i := range 500 {
		loc := fmt.Sprintf("Town %d", i)
		if i%5 == 0 {
			loc = fmt.Sprintf("%d.5,%d", i%179-89, i%360-180)
		}
		r, err := o.Current(context.Background(), loc, Metric)
		if err != nil {
			t.Fatal(err)
		}
		if r.Temperature < -35 || r.Temperature > 40 {
			t.Errorf("%s: temperature %v out of range", loc, r.Temperature)
		}
		if r.Humidity < 30 || r.Humidity > 95 {
			t.Errorf("%s: humidity %d out of range", loc, r.Humidity)
		}
		if r.WindSpeed < 0 || r.WindSpeed > 35 {
			t.Errorf("%s: wind %v out of range", loc, r.WindSpeed)
		}
		if strings.Contains(r.Conditions, "snow") && r.Temperature > 1 {
			t.Errorf("%s: %s at %v °C", loc, r.Conditions, r.Temperature)
		}
		if strings.HasPrefix(r.Conditions, "unknown") {
			t.Errorf("%s: conditions %q", loc, r.Conditions)
		}
		seenConditions[r.Conditions] = true
	}
	if len(seenConditions) < 5 {
		t.Errorf("only %d distinct conditions: %v", len(seenConditions), seenConditions)
	}
}

func TestOfflineUnitConversions(t *testing.T) {
	ctx := context.Background()
	o := &Offline{}
	for _, loc := range []string{"Paris", "Reykjavik", "Singapore", "Nowhere Special", "-45.1,170.2"} {
		m, err := o.Current(ctx, loc, Metric)
		if err != nil {
			t.Fatal(err)
		}
		imp, _ := o.Current(ctx, loc, Imperial)
		k, _ := o.Current(ctx, loc, Kelvin)
		def, _ := o.Current(ctx, loc, "")
		if def != m {
			t.Errorf("%s: empty units differ from metric: %+v vs %+v", loc, def, m)
		}
		if want := clean(m.Temperature*9/5 + 32); imp.Temperature != want {
			t.Errorf("%s: imperial %v, want %v", loc, imp.Temperature, want)
		}
		if want := clean(m.Temperature + 273.15); k.Temperature != want {
			t.Errorf("%s: kelvin %v, want %v", loc, k.Temperature, want)
		}
		if want := clean(m.WindSpeed * 0.621371); imp.WindSpeed != want {
			t.Errorf("%s: mph %v, want %v", loc, imp.WindSpeed, want)
		}
		if k.WindSpeed != m.WindSpeed || imp.Humidity != m.Humidity || imp.Conditions != m.Conditions {
			t.Errorf("%s: non-temperature fields changed with units", loc)
		}
		if imp.TemperatureUnit != "°F" || imp.WindSpeedUnit != "mph" || k.TemperatureUnit != "K" || k.WindSpeedUnit != "km/h" {
			t.Errorf("%s: unit labels %q %q %q %q", loc, imp.TemperatureUnit, imp.WindSpeedUnit, k.TemperatureUnit, k.WindSpeedUnit)
		}
	}
}

func TestOfflineCoordinates(t *testing.T) {
	ctx := context.Background()
	o := &Offline{}
	a, err := o.Current(ctx, "48.8566,2.3522", Metric)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := o.Current(ctx, " 48.8566 ,  2.3522 ", Metric)
	if a != b {
		t.Errorf("spacing changed coordinate report: %+v vs %+v", a, b)
	}
	if a.Location != "48.8566, 2.3522" || a.Latitude != 48.8566 || a.Longitude != 2.3522 {
		t.Errorf("coordinate report %+v", a)
	}
}

func TestOfflineErrors(t *testing.T) {
	ctx := context.Background()
	o := &Offline{}
	tests := []struct {
		loc   string
		units Units
		days  int
		want  string
	}{
		{"", Metric, 1, "location is empty"},
		{"   ", Metric, 1, "location is empty"},
		{"95,10", Metric, 1, "latitude 95 out of range"},
		{"10,-200", Metric, 1, "longitude -200 out of range"},
		{"Paris", "rankine", 1, `unknown units "rankine"`},
		{"Paris", Metric, 0, "days must be between 1 and 16, got 0"},
		{"Paris", Metric, 17, "days must be between 1 and 16, got 17"},
	}
	for _, tc := range tests {
		_, errF := o.Forecast(ctx, tc.loc, tc.units, tc.days)
		if errF == nil || !strings.Contains(errF.Error(), tc.want) || !errors.Is(errF, ErrInvalidInput) {
			t.Errorf("Forecast(%q, %q, %d) err = %v, want %q", tc.loc, tc.units, tc.days, errF, tc.want)
		}
		if strings.HasPrefix(tc.want, "days") {
			continue
		}
		_, errC := o.Current(ctx, tc.loc, tc.units)
		if errC == nil || !strings.Contains(errC.Error(), tc.want) || !errors.Is(errC, ErrInvalidInput) {
			t.Errorf("Current(%q, %q) err = %v, want %q", tc.loc, tc.units, errC, tc.want)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := o.Current(cctx, "Paris", Metric); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled Current err = %v", err)
	}
	if _, err := o.Forecast(cctx, "Paris", Metric, 3); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled Forecast err = %v", err)
	}
}

func TestOfflineForecast(t *testing.T) {
	ctx := context.Background()
	o := &Offline{Now: fixedClock("2026-07-28T23:30:00Z")}
	f, err := o.Forecast(ctx, "Berlin", Metric, 5)
	if err != nil {
		t.Fatal(err)
	}
	if f.Location != "Berlin" || f.Units != Metric || f.TemperatureUnit != "°C" || f.Source != SourceOffline {
		t.Errorf("forecast metadata %+v", f)
	}
	wantDates := []string{"2026-07-28", "2026-07-29", "2026-07-30", "2026-07-31", "2026-08-01"}
	if len(f.Days) != len(wantDates) {
		t.Fatalf("got %d days, want %d", len(f.Days), len(wantDates))
	}
	for i, d := range f.Days {
		if d.Date != wantDates[i] {
			t.Errorf("day %d date %q, want %q", i, d.Date, wantDates[i])
		}
		if d.Low >= d.High || d.High > 45 || d.Low < -45 || d.Conditions == "" {
			t.Errorf("day %d implausible: %+v", i, d)
		}
	}
	again, _ := o.Forecast(ctx, "berlin", Metric, 5)
	if fmt.Sprint(again) != fmt.Sprint(f) {
		t.Errorf("forecast not deterministic")
	}

	// Another clock changes only the dates.
	later, _ := (&Offline{Now: fixedClock("2027-01-01T08:00:00Z")}).Forecast(ctx, "Berlin", Metric, 5)
	for i := range later.Days {
		if later.Days[i].Date == f.Days[i].Date {
			t.Errorf("day %d date did not follow the clock", i)
		}
		later.Days[i].Date = f.Days[i].Date
	}
	if fmt.Sprint(later) != fmt.Sprint(f) {
		t.Errorf("forecast values depend on time: %+v vs %+v", later, f)
	}

	imp, _ := o.Forecast(ctx, "Berlin", Imperial, 5)
	k, _ := o.Forecast(ctx, "Berlin", Kelvin, 5)
	for i := range f.Days {
		m := f.Days[i]
		if imp.Days[i].High != clean(m.High*9/5+32) || imp.Days[i].Low != clean(m.Low*9/5+32) {
			t.Errorf("day %d imperial %+v vs metric %+v", i, imp.Days[i], m)
		}
		if k.Days[i].High != clean(m.High+273.15) || k.Days[i].Low != clean(m.Low+273.15) {
			t.Errorf("day %d kelvin %+v vs metric %+v", i, k.Days[i], m)
		}
	}
	if imp.TemperatureUnit != "°F" || k.TemperatureUnit != "K" {
		t.Errorf("unit labels %q %q", imp.TemperatureUnit, k.TemperatureUnit)
	}

	one, _ := o.Forecast(ctx, "Berlin", Metric, 1)
	if len(one.Days) != 1 || one.Days[0] != f.Days[0] {
		t.Errorf("1-day forecast %+v is not a prefix of %+v", one.Days, f.Days)
	}
	max, err := o.Forecast(ctx, "Berlin", Metric, MaxForecastDays)
	if err != nil || len(max.Days) != MaxForecastDays {
		t.Errorf("max days: %d, %v", len(max.Days), err)
	}
}

func TestOfflineDefaultClock(t *testing.T) {
	before := time.Now().Format(time.DateOnly)
	f, err := (&Offline{}).Forecast(context.Background(), "Oslo", Metric, 1)
	after := time.Now().Format(time.DateOnly)
	if err != nil {
		t.Fatal(err)
	}
	if d := f.Days[0].Date; d != before && d != after {
		t.Errorf("default clock date %q, want today (%s)", d, before)
	}
}

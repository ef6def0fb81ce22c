package weather

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

var _ Provider = (*OpenMeteo)(nil)

const berlinGeo = `{"results":[{"id":2950159,"name":"Berlin","latitude":52.52437,"longitude":13.41053,
	"country_code":"DE","admin1":"Land Berlin","country":"Germany"}],"generationtime_ms":0.5}`

const berlinCurrent = `{"latitude":52.52,"longitude":13.419998,"timezone":"Europe/Berlin",
	"current_units":{"temperature_2m":"°C"},
	"current":{"time":"2026-07-28T15:00","interval":900,"temperature_2m":21.4,"relative_humidity_2m":56.6,
	"wind_speed_10m":11.9,"weather_code":2}}`

const berlinDaily = `{"daily":{"time":["2026-07-28","2026-07-29","2026-07-30"],
	"temperature_2m_max":[24.1,26.3,19],"temperature_2m_min":[14.2,15,12.5],"weather_code":[3,0,61]}}`

// fakeAPI serves the two Open-Meteo endpoints from canned responses and
// records the queries it received.
type fakeAPI struct {
	mu       sync.Mutex
	geo      func(w http.ResponseWriter, q url.Values)
	forecast func(w http.ResponseWriter, q url.Values)
	geoQ     []url.Values
	fcQ      []url.Values
}

func body(status int, s string) func(http.ResponseWriter, url.Values) {
	return func(w http.ResponseWriter, _ url.Values) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(s))
	}
}

func newFake(t *testing.T) (*fakeAPI, *OpenMeteo) {
	f := &fakeAPI{geo: body(200, berlinGeo), forecast: body(200, berlinCurrent)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			t.Errorf("method %s", r.Method)
		}
		q := r.URL.Query()
		f.mu.Lock()
		switch r.URL.Path {
		case "/v1/search":
			f.geoQ = append(f.geoQ, q)
			h := f.geo
			f.mu.Unlock()
			h(w, q)
		case "/v1/forecast":
			f.fcQ = append(f.fcQ, q)
			h := f.forecast
			f.mu.Unlock()
			h(w, q)
		default:
			f.mu.Unlock()
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	p := NewOpenMeteo(srv.Client(), WithForecastURL(srv.URL+"/v1/forecast"), WithGeocodingURL(srv.URL+"/v1/search"))
	return f, p
}

func TestOpenMeteoCurrent(t *testing.T) {
	tests := []struct {
		units           Units
		wantTempUnitQ   string
		wantWindUnitQ   string
		wantTemp        float64
		tempUnit, windU string
	}{
		{Metric, "celsius", "kmh", 21.4, "°C", "km/h"},
		{"", "celsius", "kmh", 21.4, "°C", "km/h"},
		{Imperial, "fahrenheit", "mph", 21.4, "°F", "mph"}, // the API converts; the value is used as is
		{Kelvin, "celsius", "kmh", 294.55, "K", "km/h"},
	}
	for _, tc := range tests {
		f, p := newFake(t)
		r, err := p.Current(context.Background(), "  berlin ", tc.units)
		if err != nil {
			t.Fatalf("%s: %v", tc.units, err)
		}
		want := Report{
			Location: "Berlin, Germany", Latitude: 52.52437, Longitude: 13.41053,
			Temperature: tc.wantTemp, TemperatureUnit: tc.tempUnit, Units: Units(tc.units),
			Conditions: "partly cloudy", Humidity: 57, WindSpeed: 11.9, WindSpeedUnit: tc.windU, Source: SourceOpenMeteo,
		}
		if want.Units == "" {
			want.Units = Metric
		}
		if r != want {
			t.Errorf("%s: got %+v\nwant %+v", tc.units, r, want)
		}
		if len(f.geoQ) != 1 || f.geoQ[0].Get("name") != "berlin" || f.geoQ[0].Get("count") != "1" {
			t.Errorf("geocoding queries %v", f.geoQ)
		}
		if len(f.fcQ) != 1 {
			t.Fatalf("forecast queries %v", f.fcQ)
		}
		q := f.fcQ[0]
		checks := map[string]string{
			"latitude": "52.52437", "longitude": "13.41053",
			"current":          "temperature_2m,relative_humidity_2m,wind_speed_10m,weather_code",
			"temperature_unit": tc.wantTempUnitQ, "wind_speed_unit": tc.wantWindUnitQ,
		}
		for k, v := range checks {
			if q.Get(k) != v {
				t.Errorf("%s: query %s = %q, want %q", tc.units, k, q.Get(k), v)
			}
		}
	}
}

func TestOpenMeteoCoordinatesSkipGeocoding(t *testing.T) {
	f, p := newFake(t)
	f.geo = func(w http.ResponseWriter, _ url.Values) {
		t.Error("geocoding called for coordinates")
		w.WriteHeader(500)
	}
	r, err := p.Current(context.Background(), "52.52, 13.41", Metric)
	if err != nil {
		t.Fatal(err)
	}
	if r.Location != "52.52, 13.41" || r.Latitude != 52.52 || r.Longitude != 13.41 {
		t.Errorf("report %+v", r)
	}
	if q := f.fcQ[0]; q.Get("latitude") != "52.52" || q.Get("longitude") != "13.41" {
		t.Errorf("forecast query %v", q)
	}
	if _, err := p.Current(context.Background(), "100,0", Metric); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("out-of-range coordinates err = %v", err)
	}
	if len(f.fcQ) != 1 {
		t.Errorf("invalid coordinates reached the API")
	}
}

func TestOpenMeteoForecast(t *testing.T) {
	f, p := newFake(t)
	f.forecast = body(200, berlinDaily)
	got, err := p.Forecast(context.Background(), "Berlin", Kelvin, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got.Location != "Berlin, Germany" || got.Units != Kelvin || got.TemperatureUnit != "K" || got.Source != SourceOpenMeteo {
		t.Errorf("metadata %+v", got)
	}
	want := []DayForecast{
		{"2026-07-28", 297.25, 287.35, "overcast"},
		{"2026-07-29", 299.45, 288.15, "clear sky"},
		{"2026-07-30", 292.15, 285.65, "slight rain"},
	}
	if len(got.Days) != len(want) {
		t.Fatalf("days %+v", got.Days)
	}
	for i := range want {
		if got.Days[i] != want[i] {
			t.Errorf("day %d = %+v, want %+v", i, got.Days[i], want[i])
		}
	}
	q := f.fcQ[0]
	if q.Get("daily") != "temperature_2m_max,temperature_2m_min,weather_code" || q.Get("forecast_days") != "3" || q.Get("temperature_unit") != "celsius" {
		t.Errorf("forecast query %v", q)
	}
	if _, err := p.Forecast(context.Background(), "Berlin", Metric, 0); !errors.Is(err, ErrInvalidInput) {
		t.Errorf("days=0 err = %v", err)
	}
}

func TestOpenMeteoErrors(t *testing.T) {
	big := `{"results":[],"pad":"` + strings.Repeat("x", 2<<20) + `"}`
	tests := []struct {
		name     string
		geo, fc  func(http.ResponseWriter, url.Values)
		location string
		forecast bool
		want     string
		notFound bool
		status   int
	}{
		{name: "not found", geo: body(200, `{"generationtime_ms":0.3}`), location: "Atlantis", want: "location not found: Atlantis", notFound: true},
		{name: "not found empty list", geo: body(200, `{"results":[]}`), location: "Nowhere  Town", want: "location not found: Nowhere Town", notFound: true},
		{name: "geocoding 404", geo: body(404, `not here`), location: "Berlin", want: "open-meteo geocoding: HTTP 404 Not Found", status: 404},
		{name: "forecast 500", fc: body(500, `oops`), location: "Berlin", want: "open-meteo forecast: HTTP 500 Internal Server Error", status: 500},
		{name: "forecast 400 reason", fc: body(400, `{"error":true,"reason":"Latitude must be in range of -90 to 90°."}`), location: "Berlin",
			want: "open-meteo forecast: HTTP 400 Bad Request: Latitude must be in range", status: 400},
		{name: "geocoding bad JSON", geo: body(200, `<html>`), location: "Berlin", want: "open-meteo geocoding: invalid JSON response"},
		{name: "forecast bad JSON", fc: body(200, `{"current":`), location: "Berlin", want: "open-meteo forecast: invalid JSON response"},
		{name: "forecast wrong types", fc: body(200, `{"current":{"temperature_2m":"hot"}}`), location: "Berlin", want: "invalid JSON response"},
		{name: "missing current fields", fc: body(200, `{"current":{"temperature_2m":20,"weather_code":null}}`), location: "Berlin",
			want: "response is missing current.relative_humidity_2m, current.weather_code, current.wind_speed_10m"},
		{name: "geocoding bad coordinates", geo: body(200, `{"results":[{"name":"X","latitude":120,"longitude":0}]}`), location: "X",
			want: "missing or invalid coordinates"},
		{name: "oversized body", geo: body(200, big), location: "Berlin", want: "response larger than 1048576 bytes"},
		{name: "daily mismatch", fc: body(200, `{"daily":{"time":["2026-07-28"],"temperature_2m_max":[],"temperature_2m_min":[1],"weather_code":[1]}}`),
			location: "Berlin", forecast: true, want: "malformed daily data (1 dates, 0 highs, 1 lows, 1 codes)"},
		{name: "daily empty", fc: body(200, `{}`), location: "Berlin", forecast: true, want: "malformed daily data"},
		{name: "daily null value", fc: body(200, `{"daily":{"time":["2026-07-28"],"temperature_2m_max":[null],"temperature_2m_min":[1],"weather_code":[1]}}`),
			location: "Berlin", forecast: true, want: "missing daily[2026-07-28].temperature_2m_max"},
		{name: "daily bad date", fc: body(200, `{"daily":{"time":["tomorrow"],"temperature_2m_max":[1],"temperature_2m_min":[1],"weather_code":[1]}}`),
			location: "Berlin", forecast: true, want: `bad date "tomorrow"`},
		{name: "empty location", location: " ", want: "location is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, p := newFake(t)
			if tc.geo != nil {
				f.geo = tc.geo
			}
			if tc.fc != nil {
				f.forecast = tc.fc
			} else if tc.forecast {
				f.forecast = body(200, berlinDaily)
			}
			var err error
			if tc.forecast {
				_, err = p.Forecast(context.Background(), tc.location, Metric, 1)
			} else {
				_, err = p.Current(context.Background(), tc.location, Metric)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if errors.Is(err, ErrLocationNotFound) != tc.notFound {
				t.Errorf("errors.Is(ErrLocationNotFound) = %v, want %v", !tc.notFound, tc.notFound)
			}
			var he *HTTPError
			if errors.As(err, &he) != (tc.status != 0) || tc.status != 0 && he.StatusCode != tc.status {
				t.Errorf("HTTPError = %+v, want status %d", he, tc.status)
			}
		})
	}
}

func TestOpenMeteoContext(t *testing.T) {
	f, p := newFake(t)
	release := make(chan struct{})
	defer close(release)
	f.geo = func(w http.ResponseWriter, _ url.Values) {
		select {
		case <-release:
		case <-time.After(5 * time.Second):
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := p.Current(ctx, "Berlin", Metric)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want deadline exceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v despite the deadline", d)
	}

	canceled, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := p.Forecast(canceled, "1,2", Metric, 2); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled err = %v", err)
	}
}

func TestOpenMeteoDefaults(t *testing.T) {
	p := NewOpenMeteo(nil)
	if p.Name() != "open-meteo" || p.forecastURL != DefaultForecastURL || p.geocodingURL != DefaultGeocodingURL || p.client == nil || p.client.Timeout == 0 {
		t.Errorf("defaults %+v", p)
	}
	if (&Offline{}).Name() != "offline" {
		t.Error("offline name")
	}
	p = NewOpenMeteo(nil, WithMaxResponseBytes(10), WithUserAgent("ua"))
	if p.maxBytes != 10 || p.userAgent != "ua" {
		t.Errorf("options not applied: %+v", p)
	}
}

func TestOpenMeteoBadBaseURL(t *testing.T) {
	p := NewOpenMeteo(nil, WithForecastURL("://bad"))
	_, err := p.Current(context.Background(), "1,2", Metric)
	if err == nil || !strings.Contains(err.Error(), "bad base URL") {
		t.Errorf("err = %v", err)
	}
}

package weather

import (
	"context"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	r := Report{
		Location: "San Francisco", Temperature: 18.44, TemperatureUnit: "°F", Units: Imperial,
		Conditions: "partly cloudy", Humidity: 72, WindSpeed: 9.26, WindSpeedUnit: "mph", Source: SourceOffline,
	}
	want := "San Francisco: 18.4 °F, partly cloudy, humidity 72%, wind 9.3 mph (offline sample data, not a real observation)"
	if got := Text(r); got != want {
		t.Errorf("Text = %q\nwant   %q", got, want)
	}
	r.Source = SourceOpenMeteo
	r.Temperature = -0.04
	want = "San Francisco: 0.0 °F, partly cloudy, humidity 72%, wind 9.3 mph (source: Open-Meteo)"
	if got := Text(r); got != want {
		t.Errorf("Text = %q\nwant   %q", got, want)
	}
}

func TestTextOfOfflineReport(t *testing.T) {
	r, err := (&Offline{}).Current(context.Background(), "Tokyo", Kelvin)
	if err != nil {
		t.Fatal(err)
	}
	got := Text(r)
	for _, part := range []string{"Tokyo: ", " K, ", r.Conditions, "km/h", "offline sample data"} {
		if !strings.Contains(got, part) {
			t.Errorf("Text = %q, missing %q", got, part)
		}
	}
	if strings.Contains(got, "\n") {
		t.Errorf("Text spans lines: %q", got)
	}
}

func TestForecastText(t *testing.T) {
	f := Forecast{
		Location: "Paris", Units: Metric, TemperatureUnit: "°C", Source: SourceOffline,
		Days: []DayForecast{
			{Date: "2026-07-28", High: 24.06, Low: 15.2, Conditions: "partly cloudy"},
			{Date: "2026-07-29", High: 26, Low: 16.55, Conditions: "clear sky"},
		},
	}
	want := "Paris: 2-day forecast (offline sample data, not a real forecast)\n" +
		"2026-07-28: high 24.1 °C, low 15.2 °C, partly cloudy\n" +
		"2026-07-29: high 26.0 °C, low 16.6 °C, clear sky"
	if got := ForecastText(f); got != want {
		t.Errorf("ForecastText =\n%s\nwant\n%s", got, want)
	}
	f.Source = SourceOpenMeteo
	if got := ForecastText(f); !strings.HasPrefix(got, "Paris: 2-day forecast (source: Open-Meteo)\n") {
		t.Errorf("ForecastText = %q", got)
	}
}

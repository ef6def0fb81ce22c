package weather

import (
	"fmt"
	"strconv"
	"strings"
)

// Text renders a report as one human-readable line, e.g.
// "San Francisco: 18.4 °C, partly cloudy, humidity 72%, wind 9.3 km/h (offline sample data, not a real observation)".
func Text(r Report) string {
	return fmt.Sprintf("%s: %s %s, %s, humidity %d%%, wind %s %s%s",
		r.Location, one(r.Temperature), r.TemperatureUnit, r.Conditions, r.Humidity,
		one(r.WindSpeed), r.WindSpeedUnit, sourceNote(r.Source, "observation"))
}

// ForecastText renders a forecast as a header line followed by one line per
// day, e.g. "2026-07-28: high 24.1 °C, low 15.2 °C, partly cloudy".
func ForecastText(f Forecast) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d-day forecast%s", f.Location, len(f.Days), sourceNote(f.Source, "forecast"))
	for _, d := range f.Days {
		fmt.Fprintf(&b, "\n%s: high %s %s, low %s %s, %s",
			d.Date, one(d.High), f.TemperatureUnit, one(d.Low), f.TemperatureUnit, d.Conditions)
	}
	return b.String()
}

func sourceNote(source, what string) string {
	switch source {
	case SourceOffline:
		return " (offline sample data, not a real " + what + ")"
	case SourceOpenMeteo:
		return " (source: Open-Meteo)"
	case "":
		return ""
	}
	return " (source: " + source + ")"
}

// one formats v with one decimal, never "-0.0".
func one(v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if s == "-0.0" {
		return "0.0"
	}
	return s
}

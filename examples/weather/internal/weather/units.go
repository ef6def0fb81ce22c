// Package weather provides current conditions and short forecasts for a
// location, either from deterministic offline sample data (Offline) or from
// the Open-Meteo HTTP API (OpenMeteo).
package weather

import (
	"fmt"
	"math"
	"strings"
)

// Units selects the unit system of a report.
type Units string

// Supported unit systems.
const (
	Metric   Units = "metric"   // °C, km/h
	Imperial Units = "imperial" // °F, mph
	Kelvin   Units = "kelvin"   // K, km/h
)

// AllUnits lists the supported unit systems, e.g. for a JSON Schema enum.
var AllUnits = []Units{Metric, Imperial, Kelvin}

// MphPerKmh converts km/h to mph.
const MphPerKmh = 0.621371

// ParseUnits parses a unit system name (case-insensitive, surrounding space
// ignored). The empty string means Metric.
func ParseUnits(s string) (Units, error) {
	switch u := Units(strings.ToLower(strings.TrimSpace(s))); u {
	case "":
		return Metric, nil
	case Metric, Imperial, Kelvin:
		return u, nil
	}
	return "", invalidf("unknown units %q (want metric, imperial or kelvin)", s)
}

// validUnits normalises u (empty means Metric) and rejects unknown systems.
func validUnits(u Units) (Units, error) { return ParseUnits(string(u)) }

// TemperatureUnit is the display symbol of temperatures in u: "°C", "°F" or "K".
func (u Units) TemperatureUnit() string {
	switch u {
	case Imperial:
		return "°F"
	case Kelvin:
		return "K"
	}
	return "°C"
}

// WindSpeedUnit is the display unit of wind speeds in u: "km/h" or "mph".
func (u Units) WindSpeedUnit() string {
	if u == Imperial {
		return "mph"
	}
	return "km/h"
}

// FromCelsius converts a Celsius temperature to u: F = C*9/5+32, K = C+273.15.
func (u Units) FromCelsius(c float64) float64 {
	switch u {
	case Imperial:
		return clean(c*9/5 + 32)
	case Kelvin:
		return clean(c + 273.15)
	}
	return c
}

// FromKmh converts a wind speed in km/h to u (mph = km/h * 0.621371).
func (u Units) FromKmh(kmh float64) float64 {
	if u == Imperial {
		return clean(kmh * MphPerKmh)
	}
	return kmh
}

// clean removes binary floating-point noise (65.12000000000001 -> 65.12)
// by rounding to 10 decimal places, far below any meaningful precision.
func clean(x float64) float64 {
	if math.Abs(x) > 1e6 {
		return x
	}
	return math.Round(x*1e10) / 1e10
}

// invalidf builds an error that matches ErrInvalidInput with errors.Is but
// whose message is exactly the formatted text.
func invalidf(format string, args ...any) error {
	return inputError(fmt.Sprintf(format, args...))
}

type inputError string

func (e inputError) Error() string        { return string(e) }
func (e inputError) Is(target error) bool { return target == ErrInvalidInput }

// Package weather holds the deterministic fake weather_current tool that every
// benchmarked server implements, so all servers do exactly the same work.
package weather

import "fmt"

// ToolName is the name of the benchmarked tool.
const ToolName = "weather_current"

// Units lists the accepted unit systems; the first one is the default.
var Units = []string{"metric", "imperial", "kelvin"}

// DefaultUnits is applied when the caller omits units.
const DefaultUnits = "metric"

// celsius is the fixed fake reading.
const celsius = 21.5

// Temperature converts the fixed reading to the given unit system.
// Unknown units fall back to metric.
func Temperature(units string) float64 {
	switch units {
	case "imperial":
		return celsius*9/5 + 32
	case "kelvin":
		return celsius + 273.15
	}
	return celsius
}

// Text is the exact text content every server returns.
func Text(location, units string) string {
	return fmt.Sprintf("%s: %.2f (%s)", location, Temperature(units), units)
}

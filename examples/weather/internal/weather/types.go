package weather

import (
	"context"
	"errors"
)

// Source values of Report and Forecast.
const (
	SourceOffline   = "offline"
	SourceOpenMeteo = "open-meteo"
)

// MaxForecastDays is the largest number of forecast days a provider returns.
const MaxForecastDays = 16

var (
	// ErrInvalidInput matches (errors.Is) errors caused by bad arguments:
	// empty location, out-of-range coordinates, unknown units, bad day count.
	ErrInvalidInput = errors.New("invalid input")
	// ErrLocationNotFound matches errors for locations the geocoder does not know.
	ErrLocationNotFound = errors.New("location not found")
)

// Report is the current weather at a location, suitable as MCP structured content.
type Report struct {
	Location        string  `json:"location"`
	Latitude        float64 `json:"latitude"`
	Longitude       float64 `json:"longitude"`
	Temperature     float64 `json:"temperature"`
	TemperatureUnit string  `json:"temperatureUnit"`
	Units           Units   `json:"units"`
	Conditions      string  `json:"conditions"`
	Humidity        int     `json:"humidity"` // percent
	WindSpeed       float64 `json:"windSpeed"`
	WindSpeedUnit   string  `json:"windSpeedUnit"`
	Source          string  `json:"source"`
}

// Forecast is a daily forecast for a location, suitable as MCP structured content.
type Forecast struct {
	Location        string        `json:"location"`
	Units           Units         `json:"units"`
	TemperatureUnit string        `json:"temperatureUnit"`
	Source          string        `json:"source"`
	Days            []DayForecast `json:"days"`
}

// DayForecast is one day of a Forecast.
type DayForecast struct {
	Date       string  `json:"date"` // YYYY-MM-DD
	High       float64 `json:"high"`
	Low        float64 `json:"low"`
	Conditions string  `json:"conditions"`
}

// Provider looks up weather. Implementations are safe for concurrent use.
type Provider interface {
	// Current returns the current weather at location (a place name or "lat,long").
	Current(ctx context.Context, location string, units Units) (Report, error)
	// Forecast returns days (1..MaxForecastDays) daily forecasts starting today.
	Forecast(ctx context.Context, location string, units Units, days int) (Forecast, error)
	// Name identifies the provider ("offline" or "open-meteo").
	Name() string
}

func validDays(days int) error {
	if days < 1 || days > MaxForecastDays {
		return invalidf("days must be between 1 and %d, got %d", MaxForecastDays, days)
	}
	return nil
}

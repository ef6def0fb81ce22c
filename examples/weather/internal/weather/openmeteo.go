package weather

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Default Open-Meteo endpoints.
const (
	DefaultForecastURL  = "https://api.open-meteo.com/v1/forecast"
	DefaultGeocodingURL = "https://geocoding-api.open-meteo.com/v1/search"
)

// DefaultMaxResponseBytes caps how much of an Open-Meteo response is read.
const DefaultMaxResponseBytes = 1 << 20

// OpenMeteo is a Provider backed by the Open-Meteo forecast and geocoding
// APIs. Place names are geocoded first; "lat,long" input is used directly.
type OpenMeteo struct {
	client       *http.Client
	forecastURL  string
	geocodingURL string
	maxBytes     int64
	userAgent    string
}

// OpenMeteoOption configures NewOpenMeteo.
type OpenMeteoOption func(*OpenMeteo)

// WithForecastURL sets the forecast endpoint (default DefaultForecastURL).
func WithForecastURL(u string) OpenMeteoOption { return func(o *OpenMeteo) { o.forecastURL = u } }

// WithGeocodingURL sets the geocoding endpoint (default DefaultGeocodingURL).
func WithGeocodingURL(u string) OpenMeteoOption { return func(o *OpenMeteo) { o.geocodingURL = u } }

// WithMaxResponseBytes caps the size of a response body (default DefaultMaxResponseBytes).
func WithMaxResponseBytes(n int64) OpenMeteoOption { return func(o *OpenMeteo) { o.maxBytes = n } }

// WithUserAgent sets the User-Agent header of requests.
func WithUserAgent(ua string) OpenMeteoOption { return func(o *OpenMeteo) { o.userAgent = ua } }

// NewOpenMeteo returns an Open-Meteo provider using client; a nil client
// means an http.Client with a 15 second timeout.
func NewOpenMeteo(client *http.Client, opts ...OpenMeteoOption) *OpenMeteo {
	if client == nil {
		client = &http.Client{Timeout: 15 * time.Second}
	}
	o := &OpenMeteo{
		client:       client,
		forecastURL:  DefaultForecastURL,
		geocodingURL: DefaultGeocodingURL,
		maxBytes:     DefaultMaxResponseBytes,
		userAgent:    "mcpgen-weather-example",
	}
	for _, opt := range opts {
		opt(o)
	}
	return o
}

// Name returns "open-meteo".
func (o *OpenMeteo) Name() string { return SourceOpenMeteo }

// Current fetches the current weather at location.
func (o *OpenMeteo) Current(ctx context.Context, location string, units Units) (Report, error) {
	u, err := validUnits(units)
	if err != nil {
		return Report{}, err
	}
	p, err := o.resolve(ctx, location)
	if err != nil {
		return Report{}, err
	}
	q := o.pointQuery(p, u)
	q.Set("current", "temperature_2m,relative_humidity_2m,wind_speed_10m,weather_code")
	var resp struct {
		Current struct {
			Temperature *float64 `json:"temperature_2m"`
			Humidity    *float64 `json:"relative_humidity_2m"`
			WindSpeed   *float64 `json:"wind_speed_10m"`
			WeatherCode *float64 `json:"weather_code"`
		} `json:"current"`
	}
	if err := o.getJSON(ctx, "forecast", o.forecastURL, q, &resp); err != nil {
		return Report{}, err
	}
	c := resp.Current
	if err := missing("current", map[string]*float64{
		"temperature_2m": c.Temperature, "relative_humidity_2m": c.Humidity,
		"wind_speed_10m": c.WindSpeed, "weather_code": c.WeatherCode,
	}); err != nil {
		return Report{}, err
	}
	return Report{
		Location:        p.name,
		Latitude:        p.lat,
		Longitude:       p.lon,
		Temperature:     temperature(*c.Temperature, u),
		TemperatureUnit: u.TemperatureUnit(),
		Units:           u,
		Conditions:      Conditions(int(*c.WeatherCode)),
		Humidity:        int(math.Round(*c.Humidity)),
		WindSpeed:       *c.WindSpeed,
		WindSpeedUnit:   u.WindSpeedUnit(),
		Source:          SourceOpenMeteo,
	}, nil
}

// Forecast fetches days of daily forecasts for location.
func (o *OpenMeteo) Forecast(ctx context.Context, location string, units Units, days int) (Forecast, error) {
	u, err := validUnits(units)
	if err != nil {
		return Forecast{}, err
	}
	if err := validDays(days); err != nil {
		return Forecast{}, err
	}
	p, err := o.resolve(ctx, location)
	if err != nil {
		return Forecast{}, err
	}
	q := o.pointQuery(p, u)
	q.Set("daily", "temperature_2m_max,temperature_2m_min,weather_code")
	q.Set("forecast_days", strconv.Itoa(days))
	var resp struct {
		Daily struct {
			Time []string   `json:"time"`
			Max  []*float64 `json:"temperature_2m_max"`
			Min  []*float64 `json:"temperature_2m_min"`
			Code []*float64 `json:"weather_code"`
		} `json:"daily"`
	}
	if err := o.getJSON(ctx, "forecast", o.forecastURL, q, &resp); err != nil {
		return Forecast{}, err
	}
	d := resp.Daily
	if len(d.Time) == 0 || len(d.Max) != len(d.Time) || len(d.Min) != len(d.Time) || len(d.Code) != len(d.Time) {
		return Forecast{}, fmt.Errorf("open-meteo forecast: malformed daily data (%d dates, %d highs, %d lows, %d codes)",
			len(d.Time), len(d.Max), len(d.Min), len(d.Code))
	}
	f := Forecast{Location: p.name, Units: u, TemperatureUnit: u.TemperatureUnit(), Source: SourceOpenMeteo}
	for i, date := range d.Time {
		if _, err := time.Parse(time.DateOnly, date); err != nil {
			return Forecast{}, fmt.Errorf("open-meteo forecast: bad date %q in daily data", date)
		}
		if err := missing("daily["+date+"]", map[string]*float64{
			"temperature_2m_max": d.Max[i], "temperature_2m_min": d.Min[i], "weather_code": d.Code[i],
		}); err != nil {
			return Forecast{}, err
		}
		f.Days = append(f.Days, DayForecast{
			Date:       date,
			High:       temperature(*d.Max[i], u),
			Low:        temperature(*d.Min[i], u),
			Conditions: Conditions(int(*d.Code[i])),
		})
	}
	return f, nil
}

// temperature converts a value fetched in the API unit for u (Celsius for
// Metric and Kelvin, Fahrenheit for Imperial) to u.
func temperature(v float64, u Units) float64 {
	if u == Kelvin {
		return u.FromCelsius(v)
	}
	return v
}

// pointQuery builds the common forecast query for a place.
func (o *OpenMeteo) pointQuery(p place, u Units) url.Values {
	q := url.Values{}
	q.Set("latitude", strconv.FormatFloat(p.lat, 'f', -1, 64))
	q.Set("longitude", strconv.FormatFloat(p.lon, 'f', -1, 64))
	q.Set("timezone", "auto")
	if u == Imperial {
		q.Set("temperature_unit", "fahrenheit")
		q.Set("wind_speed_unit", "mph")
	} else {
		q.Set("temperature_unit", "celsius")
		q.Set("wind_speed_unit", "kmh")
	}
	return q
}

// resolve turns location into coordinates, geocoding place names.
func (o *OpenMeteo) resolve(ctx context.Context, location string) (place, error) {
	_, c, isCoords, err := readLocation(location)
	if err != nil {
		return place{}, err
	}
	if isCoords {
		return place{name: c.name(), lat: c.lat, lon: c.lon}, nil
	}
	name := strings.Join(strings.Fields(location), " ")
	q := url.Values{}
	q.Set("name", name)
	q.Set("count", "1")
	q.Set("language", "en")
	q.Set("format", "json")
	var resp struct {
		Results []struct {
			Name      string   `json:"name"`
			Latitude  *float64 `json:"latitude"`
			Longitude *float64 `json:"longitude"`
			Admin1    string   `json:"admin1"`
			Country   string   `json:"country"`
		} `json:"results"`
	}
	if err := o.getJSON(ctx, "geocoding", o.geocodingURL, q, &resp); err != nil {
		return place{}, err
	}
	if len(resp.Results) == 0 {
		return place{}, fmt.Errorf("%w: %s", ErrLocationNotFound, name)
	}
	r := resp.Results[0]
	if r.Latitude == nil || r.Longitude == nil || *r.Latitude < -90 || *r.Latitude > 90 || *r.Longitude < -180 || *r.Longitude > 180 {
		return place{}, fmt.Errorf("open-meteo geocoding: result for %q has missing or invalid coordinates", name)
	}
	display := r.Name
	if display == "" {
		display = name
	}
	if r.Country != "" {
		display += ", " + r.Country
	}
	return place{name: display, lat: *r.Latitude, lon: *r.Longitude}, nil
}

// getJSON GETs base?q and decodes the JSON body into out, reporting HTTP
// errors (with Open-Meteo's "reason" when present), oversized and invalid bodies.
func (o *OpenMeteo) getJSON(ctx context.Context, api, base string, q url.Values, out any) error {
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("open-meteo %s: bad base URL %q: %w", api, base, err)
	}
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fmt.Errorf("open-meteo %s: %w", api, err)
	}
	req.Header.Set("Accept", "application/json")
	if o.userAgent != "" {
		req.Header.Set("User-Agent", o.userAgent)
	}
	resp, err := o.client.Do(req)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("open-meteo %s: %w", api, ctxErr)
		}
		return fmt.Errorf("open-meteo %s: request failed: %w", api, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, o.maxBytes+1))
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("open-meteo %s: %w", api, ctxErr)
		}
		return fmt.Errorf("open-meteo %s: reading response: %w", api, err)
	}
	if int64(len(body)) > o.maxBytes {
		return fmt.Errorf("open-meteo %s: response larger than %d bytes", api, o.maxBytes)
	}
	if resp.StatusCode != http.StatusOK {
		var apiErr struct {
			Reason string `json:"reason"`
		}
		msg := fmt.Sprintf("open-meteo %s: HTTP %s", api, resp.Status)
		if json.Unmarshal(body, &apiErr) == nil && apiErr.Reason != "" {
			msg += ": " + apiErr.Reason
		}
		return &HTTPError{StatusCode: resp.StatusCode, msg: msg}
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("open-meteo %s: invalid JSON response: %w", api, err)
	}
	return nil
}

// HTTPError is returned when Open-Meteo answers with a non-200 status.
type HTTPError struct {
	StatusCode int
	msg        string
}

// Error returns the message, e.g. "open-meteo forecast: HTTP 500 Internal Server Error: reason".
func (e *HTTPError) Error() string { return e.msg }

// missing reports the first nil value of fields (sorted by name for stable messages).
func missing(where string, fields map[string]*float64) error {
	var names []string
	for name, v := range fields {
		if v == nil {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	return errors.New("open-meteo forecast: response is missing " + where + "." + strings.Join(names, ", "+where+"."))
}

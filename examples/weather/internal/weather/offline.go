package weather

import (
	"context"
	"hash/fnv"
	"math"
	"time"
)

// Offline is a deterministic Provider that needs no network: every value is
// derived from a hash of the normalised location (trimmed, whitespace
// collapsed, case-folded), so the same input always gives the same report.
// Only forecast dates depend on time, through Now. A few well-known cities
// have real coordinates; other names get plausible made-up ones. The zero
// value is ready to use.
type Offline struct {
	// Now supplies the current time for forecast dates; nil means time.Now.
	Now func() time.Time
}

// NewOffline returns an Offline provider using the system clock.
func NewOffline() *Offline { return &Offline{Now: time.Now} }

// Name returns "offline".
func (o *Offline) Name() string { return SourceOffline }

// knownPlaces gives real coordinates for a few common sample locations.
var knownPlaces = map[string]struct {
	name     string
	lat, lon float64
}{
	"san francisco": {"San Francisco", 37.7749, -122.4194},
	"new york":      {"New York", 40.7128, -74.006},
	"london":        {"London", 51.5074, -0.1278},
	"paris":         {"Paris", 48.8566, 2.3522},
	"berlin":        {"Berlin", 52.52, 13.405},
	"oslo":          {"Oslo", 59.9139, 10.7522},
	"reykjavik":     {"Reykjavik", 64.1466, -21.9426},
	"cairo":         {"Cairo", 30.0444, 31.2357},
	"tokyo":         {"Tokyo", 35.6762, 139.6503},
	"singapore":     {"Singapore", 1.3521, 103.8198},
	"sydney":        {"Sydney", -33.8688, 151.2093},
}

// place is a resolved offline location.
type place struct {
	name     string
	lat, lon float64
	seed     uint64
}

func resolveOffline(location string) (place, error) {
	key, c, isCoords, err := readLocation(location)
	if err != nil {
		return place{}, err
	}
	if isCoords {
		name := c.name()
		return place{name: name, lat: c.lat, lon: c.lon, seed: hash(name)}, nil
	}
	seed := hash(key)
	if k, ok := knownPlaces[key]; ok {
		return place{name: k.name, lat: k.lat, lon: k.lon, seed: seed}, nil
	}
	return place{
		name: titleCase(key),
		lat:  round(unit(seed, 100)*130-60, 4), // -60..70
		lon:  round(unit(seed, 101)*360-180, 4),
		seed: seed,
	}, nil
}

// baseCelsius is a plausible mean temperature: warm near the equator, cold near the poles.
func (p place) baseCelsius() float64 { return 28 - 0.45*math.Abs(p.lat) }

// Current returns deterministic sample conditions for location.
func (o *Offline) Current(ctx context.Context, location string, units Units) (Report, error) {
	if err := ctx.Err(); err != nil {
		return Report{}, err
	}
	u, err := validUnits(units)
	if err != nil {
		return Report{}, err
	}
	p, err := resolveOffline(location)
	if err != nil {
		return Report{}, err
	}
	tempC := round(p.baseCelsius()+unit(p.seed, 1)*16-8, 1)
	windKmh := round(unit(p.seed, 3)*35, 1)
	return Report{
		Location:        p.name,
		Latitude:        p.lat,
		Longitude:       p.lon,
		Temperature:     u.FromCelsius(tempC),
		TemperatureUnit: u.TemperatureUnit(),
		Units:           u,
		Conditions:      Conditions(sampleCode(p.seed, 4, tempC)),
		Humidity:        30 + int(unit(p.seed, 2)*66), // 30..95
		WindSpeed:       u.FromKmh(windKmh),
		WindSpeedUnit:   u.WindSpeedUnit(),
		Source:          SourceOffline,
	}, nil
}

// Forecast returns days of deterministic sample forecasts, dated from Now.
func (o *Offline) Forecast(ctx context.Context, location string, units Units, days int) (Forecast, error) {
	if err := ctx.Err(); err != nil {
		return Forecast{}, err
	}
	u, err := validUnits(units)
	if err != nil {
		return Forecast{}, err
	}
	if err := validDays(days); err != nil {
		return Forecast{}, err
	}
	p, err := resolveOffline(location)
	if err != nil {
		return Forecast{}, err
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	today := now()
	f := Forecast{Location: p.name, Units: u, TemperatureUnit: u.TemperatureUnit(), Source: SourceOffline}
	for i := range days {
		salt := uint64(1000 + 10*i)
		high := round(p.baseCelsius()+unit(p.seed, salt)*14-3, 1)
		low := round(high-4-unit(p.seed, salt+1)*8, 1)
		f.Days = append(f.Days, DayForecast{
			Date:       today.AddDate(0, 0, i).Format(time.DateOnly),
			High:       u.FromCelsius(high),
			Low:        u.FromCelsius(low),
			Conditions: Conditions(sampleCode(p.seed, salt+2, (high+low)/2)),
		})
	}
	return f, nil
}

// sampleCode picks a plausible WMO code: snow only when it is cold.
func sampleCode(seed, salt uint64, tempC float64) int {
	codes := []int{0, 1, 2, 3, 45, 61, 63, 80, 95}
	if tempC <= 1 {
		codes = []int{0, 1, 2, 3, 45, 71, 73, 85}
	}
	return codes[int(unit(seed, salt)*float64(len(codes)))]
}

func hash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// unit returns a deterministic pseudo-random number in [0, 1) for (seed, salt)
// using the splitmix64 finaliser.
func unit(seed, salt uint64) float64 {
	z := seed + (salt+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

// round rounds x to the given number of decimal places.
func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

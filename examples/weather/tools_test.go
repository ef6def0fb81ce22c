package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/bind"
	"github.com/mcpgen/mcpgen/examples/weather/internal/calc"
	"github.com/mcpgen/mcpgen/examples/weather/internal/weather"
)

// The tool bodies, called directly: no runtime involved.

func TestCalculate(t *testing.T) {
	tools := &Tools{Provider: weather.NewOffline()}
	r, err := tools.Calculate(CalcArgs{Expression: "2 + 3 * (4 ^ 2) - sin(30)"})
	if err != nil || r.Result != 49.5 || r.String() != "2 + 3 * (4 ^ 2) - sin(30) = 49.5" {
		t.Errorf("got %+v %q, %v", r, r.String(), err)
	}
	_, err = tools.Calculate(CalcArgs{Expression: "2 + * 3"})
	var ce *calc.Error
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), `cannot evaluate "2 + * 3": at position`) {
		t.Errorf("error %v", err)
	}
}

func TestCurrentWeather(t *testing.T) {
	tools := &Tools{Provider: weather.NewOffline()}
	r, err := tools.CurrentWeather(context.Background(), CurrentArgs{Location: "San Francisco", Units: weather.Imperial})
	if err != nil {
		t.Fatal(err)
	}
	if r.Location != "San Francisco" || r.Units != weather.Imperial || r.String() != weather.Text(weather.Report(r)) ||
		!strings.Contains(r.String(), "offline sample data") {
		t.Errorf("report %+v, text %q", r, r.String())
	}
	if _, err := tools.CurrentWeather(context.Background(), CurrentArgs{Location: "  "}); !errors.Is(err, weather.ErrInvalidInput) {
		t.Errorf("empty location: %v", err)
	}
}

func TestForecast(t *testing.T) {
	f := &Forecaster{Provider: weather.NewOffline()}
	fc, err := f.Forecast(context.Background(), ForecastArgs{Location: "Oslo"})
	if err != nil || len(fc.Days) != 3 || !strings.HasPrefix(fc.String(), "Oslo: 3-day forecast") {
		t.Errorf("forecast %+v %q, %v", fc, fc.String(), err)
	}
	if _, err := f.Forecast(context.Background(), ForecastArgs{Location: "Oslo", Days: 17}); !errors.Is(err, weather.ErrInvalidInput) {
		t.Errorf("17 days: %v", err)
	}
}

func TestNewProvider(t *testing.T) {
	for name, want := range map[string]string{"offline": "offline", "open-meteo": "open-meteo"} {
		p, err := newProvider(name)
		if err != nil || p.Name() != want {
			t.Errorf("newProvider(%q) = %v, %v", name, p, err)
		}
	}
	if _, err := newProvider("accuweather"); err == nil || !strings.Contains(err.Error(), "want offline or open-meteo") {
		t.Errorf("unknown provider: %v", err)
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{{"--provider", "x"}, {"--nope"}, {"extra"}} {
		var stderr bytes.Buffer
		if err := run(args, &stderr); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}

// TestGeneratedFileIsFresh checks the committed mcp_gen.go against what
// `mcpgen tools` (bind.Load + bind.Emit) would write now.
func TestGeneratedFileIsFresh(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the package with the go command")
	}
	pkg, err := bind.Load(".", bind.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := bind.Emit(pkg, bind.EmitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(bind.OutputFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale; run go generate ./examples/weather", bind.OutputFile)
	}
}

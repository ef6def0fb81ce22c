package main

import (
	"context"
	"fmt"

	"github.com/mcpgen/mcpgen/examples/weather/internal/calc"
	"github.com/mcpgen/mcpgen/examples/weather/internal/weather"
)

// The bindings (mcp_gen.go) are written by `mcpgen tools` from the //mcp:
// directives below. The doc comment of a bound func (without the directive)
// is the description the model reads, so it is written for the model.
// `go generate ./...` from the repository root reruns it.
//
//go:generate go run github.com/mcpgen/mcpgen/cmd/mcpgen tools

// Tools are the tools the server always offers.
type Tools struct {
	Provider weather.Provider
}

// Forecaster is the optional weather_forecast tool, switched in and out of
// the tool set on SIGHUP.
type Forecaster struct {
	Provider weather.Provider
}

// CurrentArgs are the arguments of weather_current.
type CurrentArgs struct {
	Location string        `json:"location" jsonschema:"required,minLength=1,maxLength=200" jsonschema_description:"City name, address, or lat,long"`
	Units    weather.Units `json:"units,omitempty" jsonschema:"enum=metric,enum=imperial,enum=kelvin,default=metric,description=Unit system of the report"`
}

// Report is the current weather at a location: the structuredContent of
// weather_current. Its text rendering is weather.Text.
type Report weather.Report

// String renders the report as one line for the model.
func (r Report) String() string { return weather.Text(weather.Report(r)) }

// Get current weather information for any location worldwide: temperature,
// conditions, humidity and wind.
//
//mcp:tool name=weather_current title="Weather Information" readOnly openWorld
func (t *Tools) CurrentWeather(ctx context.Context, in CurrentArgs) (Report, error) {
	r, err := t.Provider.Current(ctx, in.Location, in.Units)
	return Report(r), err
}

// CalcArgs are the arguments of calculator_arithmetic.
type CalcArgs struct {
	Expression string `json:"expression" jsonschema:"required,minLength=1,maxLength=1000" jsonschema_description:"Arithmetic expression, e.g. 2 + 3 * (4 ^ 2) - sin(30). Supports + - * / ^ (power), parentheses, sin/cos/tan in degrees, sqrt, pow(x, y) and pi."`
}

// CalcResult is the value of an expression: the structuredContent of
// calculator_arithmetic.
type CalcResult struct {
	Expression string  `json:"expression"`
	Result     float64 `json:"result"`
}

// String renders the result as "expression = value".
func (r CalcResult) String() string { return r.Expression + " = " + calc.Format(r.Result) }

// Evaluate an arithmetic expression with operator precedence and
// parentheses. Trigonometric functions take degrees, so sin(30) is 0.5.
//
//mcp:tool name=calculator_arithmetic title="Calculator" readOnly idempotent openWorld=false
func (t *Tools) Calculate(in CalcArgs) (CalcResult, error) {
	v, err := calc.Eval(in.Expression)
	if err != nil {
		return CalcResult{}, fmt.Errorf("cannot evaluate %q: %w", in.Expression, err)
	}
	return CalcResult{Expression: in.Expression, Result: v}, nil
}

// ForecastArgs are the arguments of weather_forecast.
type ForecastArgs struct {
	Location string        `json:"location" jsonschema:"required,minLength=1,maxLength=200" jsonschema_description:"City name, address, or lat,long"`
	Units    weather.Units `json:"units,omitempty" jsonschema:"enum=metric,enum=imperial,enum=kelvin,default=metric,description=Unit system of the forecast"`
	Days     int           `json:"days,omitempty" jsonschema:"minimum=1,maximum=16,default=3,description=Number of days to forecast (1 to 16)"`
}

// ForecastReport is a daily forecast: the structuredContent of
// weather_forecast. Its text rendering is weather.ForecastText.
type ForecastReport weather.Forecast

// String renders the forecast, one line per day.
func (f ForecastReport) String() string { return weather.ForecastText(weather.Forecast(f)) }

// Get a daily weather forecast (high, low and conditions) for up to 16 days
// at any location worldwide.
//
//mcp:tool name=weather_forecast title="Weather Forecast" readOnly openWorld
func (f *Forecaster) Forecast(ctx context.Context, in ForecastArgs) (ForecastReport, error) {
	days := in.Days
	if days == 0 {
		days = 3
	}
	fc, err := f.Provider.Forecast(ctx, in.Location, in.Units, days)
	return ForecastReport(fc), err
}

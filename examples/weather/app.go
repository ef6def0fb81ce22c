package main

import (
	"fmt"
	"log/slog"
	"sync"

	"github.com/mcpgen/mcpgen/examples/weather/internal/weather"
	"github.com/mcpgen/mcpgen/internal/version"
	"github.com/mcpgen/mcpgen/server"
)

// forecastTool is the name of the tool that ToggleForecast switches.
const forecastTool = "weather_forecast"

// App is the weather server: the always-on tools, plus weather_forecast when
// it is switched on.
type App struct {
	Server *server.Server

	forecaster *Forecaster
	mu         sync.Mutex
	forecastOn bool
}

// AppOptions configure NewApp.
type AppOptions struct {
	// Provider supplies the weather; nil means the offline sample provider.
	Provider weather.Provider
	// Forecast starts the server with weather_forecast in its tool set.
	Forecast bool
	// Logger receives the server's diagnostics; nil means the runtime default.
	Logger *slog.Logger
	// StateKeys and HTTP are the deployment's server options: the
	// requestState key ring replicas share and the Host/Origin values
	// accepted besides loopback.
	StateKeys [][]byte
	HTTP      server.HTTPOptions
}

// NewApp builds the server of the specification's architecture
// walkthrough: weather_current and calculator_arithmetic, and
// weather_forecast when opts.Forecast is set.
func NewApp(opts AppOptions) (*App, error) {
	p := opts.Provider
	if p == nil {
		p = weather.NewOffline()
	}
	so := server.Options{
		Name:    "weather",
		Title:   "Weather",
		Version: version.String(),
		Instructions: "Weather and arithmetic tools. weather_current reports the current weather at a city, address or lat,long; " +
			"calculator_arithmetic evaluates expressions such as 2 + 3 * (4 ^ 2) - sin(30). " +
			"weather_forecast appears when the operator enables it (tools/list_changed tells you). " +
			"To plan a day out, follow the skill skill://plan-day-out/SKILL.md. Weather source: " + p.Name() + ".",
		Cache:     server.CachePolicy{TTLMs: 60_000, Scope: "public"},
		Logger:    opts.Logger,
		StateKeys: opts.StateKeys,
		HTTP:      opts.HTTP,
	}
	tools := &Tools{Provider: p}
	tools.MCPRegister(&so)
	a := &App{forecaster: &Forecaster{Provider: p}, forecastOn: opts.Forecast}
	if opts.Forecast {
		a.forecaster.MCPRegister(&so)
	}
	sk, err := registerSkills(&so) // skills.go
	if err != nil {
		return nil, fmt.Errorf("weather: %w", err)
	}
	srv, err := server.New(so)
	if err != nil {
		return nil, fmt.Errorf("weather: %w", err)
	}
	sk.Bind(srv)
	a.Server = srv
	return a, nil
}

// ToggleForecast adds weather_forecast to the tool set, or removes it, and
// reports whether it is now offered. Every open subscriptions/listen stream
// that asked for toolsListChanged is notified. main calls it on SIGHUP.
func (a *App) ToggleForecast() (on bool, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.forecastOn {
		a.Server.RemoveTools(forecastTool)
	} else if err := a.Server.AddTools(a.forecaster.MCPTools()...); err != nil {
		return a.forecastOn, fmt.Errorf("weather: adding %s: %w", forecastTool, err)
	}
	a.forecastOn = !a.forecastOn
	return a.forecastOn, nil
}

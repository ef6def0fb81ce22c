package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/examples/weather/internal/weather"
)

// The exchange of the specification's architecture walkthrough
// (docs/2026-07-28/architecture/index.mdx): discovery, requests with
// per-request _meta, and a subscriptions/listen stream whose notifications
// are tagged with the subscription id.

func newTestApp(t *testing.T) *App {
	t.Helper()
	app, err := NewApp(AppOptions{Provider: weather.NewOffline()})
	if err != nil {
		t.Fatal(err)
	}
	return app
}

func TestWalkthroughInProcess(t *testing.T) { walkthrough(t, inProcess{newTestApp(t)}) }

func TestWalkthroughStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	walkthrough(t, startStdio(t))
}

func TestWalkthroughHTTP(t *testing.T) { walkthrough(t, startHTTP(t, newTestApp(t))) }

func TestWalkthroughHTTPBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	walkthrough(t, startHTTPBinary(t))
}

// obj decodes a JSON object (a result or params).
func obj(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("not a JSON object: %s (%v)", raw, err)
	}
	return m
}

// at walks a decoded JSON value by object keys and array indexes.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// result fails unless m is a successful response and decodes its result.
func result(t *testing.T, what string, m msg) map[string]any {
	t.Helper()
	if m.Error != nil {
		t.Fatalf("%s: error %d %s", what, m.Error.Code, m.Error.Message)
	}
	return obj(t, m.Result)
}

// toolText returns the text of a tool result's content and its isError.
func toolText(t *testing.T, res map[string]any) (string, bool) {
	t.Helper()
	var texts []string
	for _, c := range at(res, "content").([]any) {
		if at(c, "type") == "text" {
			texts = append(texts, at(c, "text").(string))
		}
	}
	isErr, _ := at(res, "isError").(bool)
	return strings.Join(texts, "\n"), isErr
}

func toolNames(t *testing.T, res map[string]any) []string {
	t.Helper()
	var names []string
	for _, tool := range at(res, "tools").([]any) {
		names = append(names, at(tool, "name").(string))
	}
	slices.Sort(names)
	return names
}

// next returns the next message of a stream or fails after a while.
func next(t *testing.T, stream <-chan msg, what string) msg {
	t.Helper()
	select {
	case m, ok := <-stream:
		if !ok {
			t.Fatalf("stream ended while waiting for %s", what)
		}
		return m
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s within 10s", what)
	}
	return msg{}
}

func walkthrough(t *testing.T, w wire) {
	// Discovery.
	disc := result(t, "server/discover", w.call(t, 1, "server/discover", nil))
	if vs, _ := at(disc, "supportedVersions").([]any); !slices.Contains(vs, any(protocolVersion)) {
		t.Errorf("supportedVersions %v lacks %s", vs, protocolVersion)
	}
	if at(disc, "capabilities", "tools", "listChanged") != true {
		t.Errorf("capabilities.tools.listChanged is %v, want true: %v", at(disc, "capabilities", "tools", "listChanged"), at(disc, "capabilities"))
	}
	if at(disc, "_meta", "io.modelcontextprotocol/serverInfo", "name") != "weather" {
		t.Errorf("serverInfo: %v", at(disc, "_meta"))
	}

	// tools/list: both tools with derived schemas, and the cache fields.
	list := result(t, "tools/list", w.call(t, 2, "tools/list", nil))
	if got := toolNames(t, list); !slices.Equal(got, []string{"calculator_arithmetic", "weather_current"}) {
		t.Errorf("tools %v, want calculator_arithmetic and weather_current", got)
	}
	if _, ok := at(list, "ttlMs").(float64); !ok {
		t.Errorf("tools/list lacks ttlMs: %v", list)
	}
	if s, _ := at(list, "cacheScope").(string); s != "public" && s != "private" {
		t.Errorf("tools/list cacheScope %v", at(list, "cacheScope"))
	}
	for _, tool := range at(list, "tools").([]any) {
		switch at(tool, "name") {
		case "weather_current":
			checkWeatherTool(t, tool)
		case "calculator_arithmetic":
			in := at(tool, "inputSchema")
			if at(in, "type") != "object" || !slices.Contains(at(in, "required").([]any), any("expression")) {
				t.Errorf("calculator inputSchema %v", in)
			}
		}
	}

	// tools/call weather_current.
	res := result(t, "weather_current", w.call(t, 3, "tools/call", map[string]any{
		"name": "weather_current", "arguments": map[string]any{"location": "San Francisco", "units": "imperial"},
	}))
	text, isErr := toolText(t, res)
	if isErr || !strings.Contains(text, "San Francisco") || !strings.Contains(text, "°F") || !strings.Contains(text, "offline sample data") {
		t.Errorf("weather_current text %q (isError %v)", text, isErr)
	}
	if sc := at(res, "structuredContent"); at(sc, "units") != "imperial" || at(sc, "location") != "San Francisco" || at(sc, "source") != "offline" {
		t.Errorf("weather_current structuredContent %v", sc)
	}

	// Defaults are applied: units is metric when absent.
	res = result(t, "weather_current default units", w.call(t, 4, "tools/call", map[string]any{
		"name": "weather_current", "arguments": map[string]any{"location": "Paris"},
	}))
	if at(res, "structuredContent", "units") != "metric" {
		t.Errorf("default units: structuredContent %v", at(res, "structuredContent"))
	}

	// The calculator, and one of its errors.
	res = result(t, "calculator_arithmetic", w.call(t, 5, "tools/call", map[string]any{
		"name": "calculator_arithmetic", "arguments": map[string]any{"expression": "2 + 3 * (4 ^ 2) - sin(30)"},
	}))
	if text, isErr := toolText(t, res); isErr || at(res, "structuredContent", "result") != 49.5 || !strings.Contains(text, "49.5") {
		t.Errorf("calculator: text %q, isError %v, structuredContent %v", text, isErr, at(res, "structuredContent"))
	}
	res = result(t, "calculator error", w.call(t, 6, "tools/call", map[string]any{
		"name": "calculator_arithmetic", "arguments": map[string]any{"expression": "2 + * 3"},
	}))
	if text, isErr := toolText(t, res); !isErr || !strings.Contains(text, "cannot evaluate") || !strings.Contains(text, "position") {
		t.Errorf("calculator error: text %q, isError %v", text, isErr)
	}

	// Arguments that fail the inputSchema: the specification makes input
	// validation errors tool execution errors (isError) naming the problem.
	res = result(t, "missing location", w.call(t, 7, "tools/call", map[string]any{
		"name": "weather_current", "arguments": map[string]any{"units": "imperial"},
	}))
	if text, isErr := toolText(t, res); !isErr || !strings.Contains(text, "location") {
		t.Errorf("missing location: text %q, isError %v", text, isErr)
	}
	res = result(t, "bad units", w.call(t, 8, "tools/call", map[string]any{
		"name": "weather_current", "arguments": map[string]any{"location": "Oslo", "units": "rankine"},
	}))
	if text, isErr := toolText(t, res); !isErr || !strings.Contains(text, "units") {
		t.Errorf("bad units: text %q, isError %v", text, isErr)
	}
	// An unknown tool is a protocol error.
	if m := w.call(t, 9, "tools/call", map[string]any{"name": "nope", "arguments": map[string]any{}}); m.Error == nil || m.Error.Code != -32602 {
		t.Errorf("unknown tool: %+v", m)
	}

	// subscriptions/listen → acknowledgement → list_changed after the tool
	// set changes → tools/list shows the change.
	stream, cancel := w.open(t, 100, "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}})
	defer cancel()
	ack := next(t, stream, "notifications/subscriptions/acknowledged")
	if ack.Method != "notifications/subscriptions/acknowledged" {
		t.Fatalf("first stream message %+v, want the acknowledgement", ack)
	}
	ap := obj(t, ack.Params)
	if at(ap, "_meta", "io.modelcontextprotocol/subscriptionId") != 100.0 || at(ap, "notifications", "toolsListChanged") != true {
		t.Errorf("acknowledgement params %s", ack.Params)
	}

	w.toggle(t) // weather_forecast in
	changed := next(t, stream, "notifications/tools/list_changed")
	if changed.Method != "notifications/tools/list_changed" || at(obj(t, changed.Params), "_meta", "io.modelcontextprotocol/subscriptionId") != 100.0 {
		t.Errorf("after the toggle: %s %s", changed.Method, changed.Params)
	}
	list = result(t, "tools/list after toggle", w.call(t, 10, "tools/list", nil))
	if got := toolNames(t, list); !slices.Equal(got, []string{"calculator_arithmetic", "weather_current", "weather_forecast"}) {
		t.Errorf("tools after the toggle: %v", got)
	}
	res = result(t, "weather_forecast", w.call(t, 11, "tools/call", map[string]any{
		"name": "weather_forecast", "arguments": map[string]any{"location": "Oslo"},
	}))
	if days, _ := at(res, "structuredContent", "days").([]any); len(days) != 3 {
		t.Errorf("weather_forecast default days: %v", at(res, "structuredContent"))
	}

	w.toggle(t) // and out again
	changed = next(t, stream, "a second notifications/tools/list_changed")
	if changed.Method != "notifications/tools/list_changed" {
		t.Errorf("after the second toggle: %s", changed.Method)
	}
	list = result(t, "tools/list after second toggle", w.call(t, 12, "tools/list", nil))
	if got := toolNames(t, list); slices.Contains(got, "weather_forecast") {
		t.Errorf("weather_forecast still listed: %v", got)
	}
}

// checkWeatherTool checks the declared metadata and derived schemas of
// weather_current.
func checkWeatherTool(t *testing.T, tool any) {
	t.Helper()
	if at(tool, "title") != "Weather Information" || !strings.HasPrefix(at(tool, "description").(string), "Get current weather information") {
		t.Errorf("weather_current title/description: %v / %v", at(tool, "title"), at(tool, "description"))
	}
	if at(tool, "annotations", "readOnlyHint") != true || at(tool, "annotations", "openWorldHint") != true {
		t.Errorf("weather_current annotations %v", at(tool, "annotations"))
	}
	in := at(tool, "inputSchema")
	if at(in, "type") != "object" || at(in, "$ref") != nil || at(in, "$id") != nil {
		t.Errorf("inputSchema root %v", in)
	}
	if req, _ := at(in, "required").([]any); !slices.Equal(req, []any{"location"}) {
		t.Errorf("inputSchema required %v, want [location]", at(in, "required"))
	}
	if at(in, "properties", "location", "type") != "string" || at(in, "properties", "location", "description") != "City name, address, or lat,long" {
		t.Errorf("location schema %v", at(in, "properties", "location"))
	}
	units := at(in, "properties", "units")
	if enum, _ := at(units, "enum").([]any); !slices.Equal(enum, []any{"metric", "imperial", "kelvin"}) || at(units, "default") != "metric" || at(units, "type") != "string" {
		t.Errorf("units schema %v", units)
	}
	out := at(tool, "outputSchema")
	if at(out, "type") != "object" || at(out, "properties", "temperature", "type") != "number" {
		t.Errorf("outputSchema %v", out)
	}
}

package mcpgenpeer

import (
	"encoding/json"
	"fmt"

	"github.com/mcpgen/mcpgen/server"
)

// weatherInputSchema is weather_current's input schema as mcp_gen.go
// carries it (TestExtraToolsMatchGenerated keeps them equal).
const weatherInputSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"location":{"type":"string","description":"city name, e.g. Paris"},"units":{"type":"string","enum":["metric","imperial","kelvin"],"description":"unit system","default":"metric"}},"type":"object","required":["location"]}`

// weatherOutputSchema is weather_current's output schema as mcp_gen.go carries it.
const weatherOutputSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"location":{"type":"string"},"units":{"type":"string"},"temperature":{"type":"number"}},"type":"object","required":["location","units","temperature"]}`

// extraTools returns n copies of weather_current named weather_00001, …,
// each built as generated bindings build a tool (NewTool with the schema
// text), for the start-up rows.
func extraTools(n int) []server.Tool {
	t := &Tools{}
	tools := make([]server.Tool, 0, max(n, 0))
	for i := 1; i <= n; i++ {
		tools = append(tools, server.NewTool(server.ToolInfo{
			Name:                 fmt.Sprintf("weather_%05d", i),
			Description:          "Current weather for a location.",
			InputSchema:          json.RawMessage(weatherInputSchema),
			OutputSchema:         json.RawMessage(weatherOutputSchema),
			OutputSchemaFromType: true,
		}, t.Current))
	}
	return tools
}

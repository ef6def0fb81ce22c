package argschema_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpgen/mcpgen/argschema"
)

type ForecastArgs struct {
	City  string `json:"city" jsonschema:"required,description=City name"`
	Units string `json:"units,omitempty" jsonschema:"enum=metric,enum=imperial,default=metric"`
}

// The start-up and per-call steps a generated tool adapter performs.
func Example() {
	// Once, at server start-up.
	schema, err := argschema.ForType[ForecastArgs]()
	if err != nil {
		panic(err)
	}
	v, err := argschema.Compile(schema)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(schema))

	// On every tools/call.
	raw, err := v.Validate(json.RawMessage(`{"city":"Lyon"}`))
	if err != nil {
		panic(err)
	}
	var in ForecastArgs
	_ = json.Unmarshal(raw, &in)
	fmt.Printf("%+v\n", in)

	_, err = v.Validate(json.RawMessage(`{"units":"kelvin"}`))
	var ve *argschema.ValidationError
	fmt.Println(errors.As(err, &ve), err)
	// Output:
	// {"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"city":{"type":"string","description":"City name"},"units":{"type":"string","enum":["metric","imperial"],"default":"metric"}},"type":"object","required":["city"]}
	// {City:Lyon Units:metric}
	// true invalid arguments: /city: required property is missing; /units: value "kelvin" is not one of ["metric","imperial"]
}

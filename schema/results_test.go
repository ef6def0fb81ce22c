package schema

import "testing"

// TestResultsPairedStructurally: a request's result is found from what the
// schema states — its result response (linked by description or by
// schema.ts @category), the union member of its @category, the generic
// JSON-RPC result — even where the names follow no convention and a
// definition named by the convention (FetchResult) is a decoy.
func TestResultsPairedStructurally(t *testing.T) {
	data := []byte(`{"$defs":{
		"Fetch":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"string"},"method":{"const":"things/fetch","type":"string"},"params":{"$ref":"#/$defs/FetchArgs"}},"required":["jsonrpc","id","method"]},
		"FetchArgs":{"type":"object","properties":{"what":{"$ref":"#/$defs/Thing"}}},
		"Thing":{"type":"object","properties":{"name":{"type":"string"}}},
		"Outcome":{"type":"object","properties":{"things":{"type":"array","items":{"$ref":"#/$defs/Thing"}}}},
		"FetchResult":{"type":"object","properties":{"decoy":{"type":"string"}}},
		"Answers":{"anyOf":[{"$ref":"#/$defs/Outcome"},{"$ref":"#/$defs/Found"},{"$ref":"#/$defs/Base"}]},
		"Lookup":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"string"},"method":{"const":"things/lookup","type":"string"}},"required":["jsonrpc","id","method"]},
		"LookupResult":{"type":"object","properties":{"decoy":{"type":"string"}}},
		"Found":{"type":"object","properties":{"where":{"type":"string"}}},
		"LookupReply":{"description":"The answer to a {@link Lookup | things/lookup} request.","type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"string"},"result":{"$ref":"#/$defs/Found"}},"required":["jsonrpc","id","result"]},
		"Hello":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"string"},"method":{"const":"hello","type":"string"}},"required":["jsonrpc","id","method"]},
		"Base":{"type":"object","properties":{"_meta":{"type":"object"}}},
		"Nothing":{"$ref":"#/$defs/Base","description":"A result with nothing in it."},
		"Envelope":{"type":"object","properties":{"jsonrpc":{"const":"2.0","type":"string"},"id":{"type":"string"},"result":{"$ref":"#/$defs/Base"}},"required":["jsonrpc","id","result"]}
	}}`)
	ts := []byte("/**\n * Fetches things.\n *\n * @category `things/fetch`\n */\nexport interface Fetch {}\n\n" +
		"/**\n * @category `things/fetch`\n */\nexport interface FetchArgs {}\n\n" +
		"/**\n * @category `things/fetch`\n */\nexport interface Thing {}\n\n" +
		"/**\n * What a fetch finds.\n *\n * @category `things/fetch`\n */\nexport interface Outcome {}\n")
	m, err := LoadBytes("s.json", data, Options{Version: "2030-01-01", TypeScript: ts, Overrides: &Overrides{}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"things/fetch": "Outcome", "things/lookup": "Found", "hello": "Nothing"}
	for _, md := range m.Requests {
		got := "<nil>"
		if md.Result != nil {
			got = md.Result.Name
		}
		if got != want[md.Name] {
			t.Errorf("%s: result %s, want %s", md.Name, got, want[md.Name])
		}
		delete(want, md.Name)
	}
	if len(want) > 0 {
		t.Errorf("requests not found: %v", want)
	}
}

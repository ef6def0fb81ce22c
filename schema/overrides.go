package schema

// Overrides is the one declared table of per-revision knowledge that the
// schema files do not state in a machine-readable way. Everything else in
// the loader is derived from the schema itself.
//
// Every entry must match something: on the revision the table is written
// for (Revision; every revision when Revision is empty), an entry that
// matches no definition or member is an error, so that an override never
// stops applying silently when the schema changes. Older revisions loaded
// with a newer table skip the entries they have nothing for.
type Overrides struct {
	// Revision is the protocol revision the table is written for.
	Revision string
	// Tags gives discriminator values that the schema states only in prose.
	Tags []TagRule
	// Names renames inline schemas, keyed by JSON pointer.
	Names map[string]string
	// Directions names the union definitions that list the messages each
	// side sends.
	Directions map[string]Direction
	// OlderDirections are direction unions of revisions before Revision
	// only; they are used when present and never reported as unmatched.
	OlderDirections map[string]Direction
	// Raw keeps properties as raw JSON text, keyed by JSON pointer: values a
	// server passes on unread (tool arguments are validated against the
	// tool's own inputSchema before they are decoded).
	Raw map[string]bool
	// Presence names properties whose presence matters even when their
	// value is empty, by property name: an empty string is a valid cursor
	// and must not read as "no more results" (pagination.mdx).
	Presence map[string]bool
	// Relaxed makes required properties optional, keyed by JSON pointer,
	// with the reason; for places where the spec's own example messages
	// leave out what the schema requires.
	Relaxed map[string]string
}

// TagRule says that a property discriminates the types that declare it.
type TagRule struct {
	// Property is the discriminating property, such as "resultType".
	Property string
	// Values maps type names to their tag.
	Values map[string]string
	// Otherwise is the tag of every other type that declares the property;
	// it is also what an absent property means.
	Otherwise string
}

// Direction is who sends the messages of a direction union, and whether
// they are notifications (no answer) or requests.
type Direction int

// The senders, and the kind of message.
const (
	FromClient Direction = 1 << iota
	FromServer
	// Notifications marks a union of notifications.
	Notifications
)

// DefaultOverrides is the table used unless the caller passes its own.
var DefaultOverrides = Overrides{
	Revision: "2026-07-28",
	Tags: []TagRule{{
		// 2026-07-28 basic/index: "resultType" is "complete" or
		// "input_required"; an absent resultType MUST be treated as "complete".
		Property:  "resultType",
		Values:    map[string]string{"InputRequiredResult": "input_required"},
		Otherwise: "complete",
	}},
	Names: map[string]string{
		"#/$defs/CallToolResultResponse/properties/result":     "CallToolOutcome",
		"#/$defs/GetPromptResultResponse/properties/result":    "GetPromptOutcome",
		"#/$defs/ReadResourceResultResponse/properties/result": "ReadResourceOutcome",
		"#/$defs/EmbeddedResource/properties/resource":         "ResourceContentsUnion",
		"#/$defs/SamplingMessage/properties/content":           "SamplingContent",
	},
	Raw: map[string]bool{
		"#/$defs/CallToolRequestParams/properties/arguments": true,
		// A tool's schemas are JSON Schema documents the runtime hands to a
		// validator and to clients as they are: any keyword may appear.
		"#/$defs/Tool/properties/inputSchema":  true,
		"#/$defs/Tool/properties/outputSchema": true,
	},
	Presence: map[string]bool{"cursor": true, "nextCursor": true},
	Relaxed: map[string]string{
		"#/$defs/ReadResourceResult/properties/ttlMs":      "the spec's example read-resource-result-response.json omits it",
		"#/$defs/ReadResourceResult/properties/cacheScope": "the spec's example read-resource-result-response.json omits it",
	},
	Directions: map[string]Direction{
		"ClientRequest":      FromClient,
		"ClientNotification": FromClient | Notifications,
		"ServerNotification": FromServer | Notifications,
		"InputRequest":       FromServer,
	},
	OlderDirections: map[string]Direction{
		"ServerRequest": FromServer, // 2026-07-28 sends server requests inside results (InputRequest)
	},
}

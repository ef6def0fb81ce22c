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
	// Names renames inline schemas, keyed by the member that holds them.
	Names map[Place]string
	// Directions names the union definitions that list the messages each
	// side sends.
	Directions map[string]Direction
	// OlderDirections are direction unions of revisions before Revision
	// only; they are used when present and never reported as unmatched.
	OlderDirections map[string]Direction
	// Raw keeps members as raw JSON text: values a server passes on unread
	// (tool arguments are validated against the tool's own inputSchema
	// before they are decoded).
	Raw map[Place]bool
	// Presence names properties whose presence matters even when their
	// value is empty, by property name: an empty string is a valid cursor
	// and must not read as "no more results" (pagination.mdx), and an
	// empty requestState is still an opaque state the client must echo,
	// one that alone makes an InputRequiredResult valid (mrtr.mdx: at
	// least one of inputRequests or requestState MUST be present).
	//
	// Every other optional string of 2026-07-28 and 2025-11-25 was
	// reviewed: titles, descriptions, MIME types, names, messages, reasons,
	// instructions, URLs, stop reasons, system prompts, timestamps and
	// $schema mean the same empty as absent; an elicitation field's
	// default "" fills in the same empty field as no default.
	Presence map[string]bool
	// Relaxed makes required members optional, with the reason; for places
	// where the spec's own example messages leave out what the schema
	// requires.
	Relaxed map[Place]string
}

// Place names a member of the schema by meaning rather than by JSON
// pointer, so that renaming a definition does not move it: a method, and
// the path of member names from its message ("params.arguments") or from
// its result ("result", "result.tools[].inputSchema"). "[]" steps into the
// items of an array; a step into a union goes into the one member that
// declares the next name. The result is the request's result as the
// schema pairs it, and "result" alone is the member of the JSON-RPC result
// response that carries it.
type Place struct {
	Method string
	Path   string
}

func (k Place) String() string { return k.Method + " " + k.Path }

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
	Names: map[Place]string{
		{"tools/call", "result"}:                                "CallToolOutcome",
		{"prompts/get", "result"}:                               "GetPromptOutcome",
		{"resources/read", "result"}:                            "ReadResourceOutcome",
		{"tools/call", "result.content[].resource"}:             "ResourceContentsUnion",
		{"sampling/createMessage", "params.messages[].content"}: "SamplingContent",
	},
	Raw: map[Place]bool{
		{"tools/call", "params.arguments"}: true,
		// A tool's schemas are JSON Schema documents the runtime hands to a
		// validator and to clients as they are: any keyword may appear.
		{"tools/list", "result.tools[].inputSchema"}:  true,
		{"tools/list", "result.tools[].outputSchema"}: true,
	},
	Presence: map[string]bool{"cursor": true, "nextCursor": true, "requestState": true},
	Relaxed: map[Place]string{
		{"resources/read", "result.ttlMs"}:      "the spec's example read-resource-result-response.json omits it",
		{"resources/read", "result.cacheScope"}: "the spec's example read-resource-result-response.json omits it",
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

package schema

import "encoding/json"

// Model is one revision of the MCP schema, read into Go-free terms: named
// types, their fields and unions, the protocol's methods and error codes.
type Model struct {
	// Source is the file the model was loaded from.
	Source string
	// Version is the protocol revision, such as "2026-07-28".
	Version string
	// Types holds every named type, sorted by name: one per $def plus the
	// inline object and union schemas that needed a name of their own.
	Types []*Type
	// Requests are the request methods, sorted by method name.
	Requests []*Method
	// Notifications are the notification methods, sorted by method name.
	Notifications []*Method
	// ErrorCodes are the JSON-RPC error codes the revision names, sorted by code.
	ErrorCodes []ErrorCode

	byName map[string]*Type
}

// Type returns the named type, or nil.
func (m *Model) Type(name string) *Type { return m.byName[name] }

// Kind says what shape a named type has.
type Kind int

const (
	// KindStruct is an object with declared properties.
	KindStruct Kind = iota
	// KindMap is an object with only additionalProperties: a map from string keys.
	KindMap
	// KindArray is a named array type.
	KindArray
	// KindScalar is a named primitive (string, integer, number, boolean).
	KindScalar
	// KindEnum is a string with a closed set of values.
	KindEnum
	// KindUnion is a sealed choice between object (or array) types.
	KindUnion
	// KindScalarUnion is a primitive that may be one of several JSON types,
	// such as a string or an integer.
	KindScalarUnion
	// KindAny is any JSON value.
	KindAny
	// KindAlias is another name for a named type ($ref with a description).
	KindAlias
)

func (k Kind) String() string {
	return [...]string{"struct", "map", "array", "scalar", "enum", "union", "scalar union", "any", "alias"}[k]
}

// Prim is a JSON primitive type name.
type Prim string

// The JSON primitive types.
const (
	String  Prim = "string"
	Integer Prim = "integer"
	Number  Prim = "number"
	Boolean Prim = "boolean"
	// Null appears only among the Prims of a scalar union.
	Null Prim = "null"
)

// Type is a named type of the model.
type Type struct {
	Name string
	// Pointer is the JSON pointer of the schema the type comes from.
	Pointer string
	// Doc is the schema's description.
	Doc string
	// Deprecated is non-empty when the type is deprecated; it holds the reason.
	Deprecated string
	Kind       Kind
	// Inline is true for types named after the place they were declared.
	Inline bool

	// Fields of a struct, sorted by JSON name.
	Fields []*Field
	// Open is set on structs whose schema invites members it does not
	// declare (additionalProperties, or a _meta object); Extra is their
	// value type (nil for any JSON value).
	Open  bool
	Extra *Ref
	// Closed is set on structs whose schema forbids undeclared members
	// (additionalProperties: false). Other structs keep such members, as
	// JSON Schema allows them.
	Closed bool
	// MetaObject is set on the types used as a _meta value.
	MetaObject bool

	// Elem is the element of a map or array, the target of an alias, or the
	// primitive of a scalar.
	Elem *Ref
	// Prims are the primitive types of a scalar union.
	Prims []Prim
	// Alternatives are the members of a scalar union written as anyOf or
	// oneOf, when a value must be checked against them: some member
	// narrows its values (an enum, a const, bounds), or, under oneOf
	// (OneOf), two members may take one value. Nil when the JSON type of a
	// value is all that matters.
	Alternatives []*Alternative
	OneOf        bool
	// Enum are the values of an enum.
	Enum []string
	// Nullable is set on an enum whose values include null
	// ("type": ["string", "null"]): the empty value stands for null, and
	// "" is not among Enum.
	Nullable bool
	// Literals are the allowed values of a scalar that is an integer,
	// number or boolean enum, or of a scalar with a const, as JSON text.
	Literals []string
	// Union describes the members of a union.
	Union *Union
	// Format is the string format of a scalar ("uri", "byte", …).
	Format string
	// Minimum and Maximum bound an integer or number scalar, when the
	// schema does.
	Minimum, Maximum *float64
	// resolved is, on an alias, the type at the end of its chain of
	// aliases (see Resolved).
	resolved *Type
}

// Field is one property of a struct.
type Field struct {
	// Name is the property name on the wire.
	Name       string
	Pointer    string
	Doc        string
	Deprecated string
	Required   bool
	// Relaxed explains why a property the schema requires is optional here.
	Relaxed string
	// Presence is set when an empty value must be told from an absent one
	// (Overrides.Presence).
	Presence bool
	// Tag is the value of a discriminating member (Overrides.Tags) for
	// this type: what an absent member means on decoding, and what an
	// unset one is encoded as ("complete" for resultType).
	Tag  string
	Type *Ref
	// Const is the JSON literal the property must have, if any.
	Const json.RawMessage
	// Enum lists the allowed string values of an inline enum (null, when
	// the enum lists it, is Type.Nullable).
	Enum []string
	// Literals lists the allowed values of an inline non-string enum, as
	// JSON text.
	Literals []string
	Default  json.RawMessage
	Format   string
	// Minimum and Maximum bound a number, when the schema does.
	Minimum, Maximum *float64
}

// Ref is a type expression: a named type, a primitive, an array or a map of
// another expression, or any JSON value.
type Ref struct {
	Named *Type
	Prim  Prim
	Array *Ref
	Map   *Ref
	Any   bool
	// Nullable is set when the schema also admits null.
	Nullable bool
	// Raw is set for values kept as raw JSON text (Overrides.Raw); RawKind
	// is the JSON kind the schema requires of it ("object"), if one.
	Raw     bool
	RawKind string
	// Base64 is set on strings of format "byte": base64-encoded bytes.
	Base64 bool
	// Check is what a primitive array element or map value must be beyond
	// its type (a member's own enum, const and bounds are on its Field, a
	// named type's on the Type), or nil. A Nullable element with a Check
	// may be null, which the Check allows; other values must pass it.
	Check *Check
}

// Check narrows the values of a primitive: each constraint present must
// hold.
type Check struct {
	// Enum are the allowed values of a string.
	Enum []string
	// Literals are the allowed values as JSON text: a non-string enum, or
	// a const.
	Literals []string
	// Minimum and Maximum bound an integer or a number.
	Minimum, Maximum *float64
}

// Alternative is one member of a scalar union: the JSON types it takes,
// and what its value must be beyond them.
type Alternative struct {
	// At is the member within the union's schema, such as "anyOf/1" (a
	// member of a nested anyOf: "anyOf/1/anyOf/0").
	At string
	// Types are the JSON types the member takes (Null among them when it
	// takes null).
	Types []Prim
	// Literals are its allowed values as JSON text (an enum or a const,
	// null included when listed), or nil for any value of its types.
	Literals []string
	// Minimum and Maximum bound its numbers, when the schema does.
	Minimum, Maximum *float64
}

// Union is how a union's members are told apart on the wire.
type Union struct {
	Members []*Member
	// Discriminator is the property whose value names the member, or "" when
	// members are told apart by their shape.
	Discriminator string
	// Default is the member chosen when the discriminator is absent, or nil.
	Default *Member
}

// Member is one alternative of a union.
type Member struct {
	Type *Type
	// Tag is the discriminator value that selects this member.
	Tag string
	// Shape describes the member for shape-based decoding.
	Shape *Shape
}

// Shape is what a JSON value must look like to be decoded as a union member.
type Shape struct {
	// JSON is the JSON kind: "object", "array", "string", "number", "boolean".
	JSON string
	// Required keys of an object.
	Required []string
	// Consts maps keys to the JSON literals they must hold.
	Consts map[string][]json.RawMessage
	// Props are every declared key.
	Props []string
	// Elem names the element type of an array.
	Elem string
	// Nested are the shapes of declared object-valued keys that have required
	// keys themselves.
	Nested map[string]*Shape
}

// Method is a request or notification of the protocol.
type Method struct {
	// Name is the method on the wire, such as "tools/call".
	Name string
	// Type is the message type (CallToolRequest).
	Type *Type
	// Params is the params type, or nil when the message carries none.
	Params *Type
	// ParamsRequired reports whether params must be present.
	ParamsRequired bool
	// ParamsNullable reports whether params may be null (the request's
	// decoder takes null there, required or not).
	ParamsNullable bool
	// Result is the result type of a request (a struct or a union), or nil.
	Result *Type
	// FromClient and FromServer say who sends the message.
	FromClient, FromServer bool
	// Notification is true for notifications.
	Notification bool
}

// ErrorCode is a JSON-RPC error code the revision defines.
type ErrorCode struct {
	// Name is a Go-friendly name such as "MethodNotFound".
	Name string
	Code int64
	Doc  string
}

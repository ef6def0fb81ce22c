// Package generator turns a schema.Model into a Go package: types, sealed
// unions, constants, _meta helpers, result completion, server handler
// interfaces with a dispatcher, and a typed client. Each emitted concern has
// its own file; support.go is the same for every package, a copy of
// internal/support (a real package, compiled and tested here), so the
// generated package needs only the standard library.
//
// # What it guarantees
//
// Generate never returns code that does not compile: it type-checks the
// package in memory first, and a failure is an *Error naming the schema
// definition at fault. Every schema name becomes a valid, unique Go
// identifier (see idents.go), the same one on every run. The check runs
// against exact stubs of the standard library (stdstub.go), so it needs
// neither the go command nor a build cache.
//
// The Dispatcher takes the params a request's own decoder takes: params
// that are a union are decoded by the union's decoder (the handler gets a
// pointer to the member), and params the schema lets be null, required or
// not, may be null (the handler then gets empty params, as when optional
// params are absent); required params must be present, null or not; and
// optional params the schema does not let be null refuse null.
//
// # Cost, and the bound for bad input
//
// Loading and generating are linear in the schema's size and nesting;
// schema.MaxSchemaBytes (32 MB) and schema.MaxDepth (128) bound what one
// schema may cost. Measured on a shared 2-core machine
// (go test ./generator -run X -bench Generate -benchmem, and
// /usr/bin/time mcpgen generate --schema 2026-07-28): the 2026-07-28 schema
// (181 KB) generates in 0.3–0.4 s of process time with 33–36 MB peak RSS
// (55 MB allocated); a schema ten times its size takes about ten times the
// time and allocation (520 MB); 40 nested levels, 23 MB. So the largest
// schema accepted costs at most about 180 times the 2026-07-28 figures
// (around a minute and a few GB on such a machine); input refused for its
// size is refused before it is parsed, and invalid JSON, nesting beyond
// MaxDepth and unsupported keywords are reported after one linear pass,
// with file: JSON pointer: message and nothing written.
//
// # JSON Schema constructs
//
// Each construct is supported as listed or refused with a JSON pointer
// error; nothing is dropped silently. testdata/constructs holds a golden,
// compiled and tested package per supported construct.
//
//   - type object with properties: a struct; required members are checked
//     on decoding, members the schema does not declare are kept in Extra
//     (refused under additionalProperties: false). Null is not absence:
//     a member, optional or not, that the schema does not let be null
//     refuses a present null ("x: must not be null"), whatever its kind;
//     only a member the schema lets be null (a type list with "null",
//     anyOf with {type: null}, a $ref to a nullable enum or scalar union,
//     no type or true) takes it.
//   - additionalProperties with a schema: on a struct, each undeclared
//     member is checked against it; without properties, a map.
//   - allOf of objects, with sibling properties/required: one merged
//     struct. A property declared in several parts keeps the constraints
//     of each (a value must fit all of them): the types both allow, the
//     enum values both list, the const, the narrower bounds, the members
//     of both; a part that only describes it (a description) keeps the
//     other's type and enum. Declarations no value fits (the type of one
//     and an enum value or const of the other it refuses: integer and
//     "x") or the model cannot combine (two $refs, a union beside other
//     constraints) are errors, as are allOf of a non-object and a definition reaching
//     itself through allOf. Flattening copies the properties of every
//     schema included, so the merged schemas together may hold at most
//     schema.FlattenFactor times the properties the schema declares, plus
//     schema.FlattenAllowance: a longer chain of allOfs (each including
//     the next) is an error at the allOf that goes over, which keeps
//     flattening linear; so is a chain of more than schema.MaxDepth
//     definitions each including the next, properties or not.
//   - $ref: the named type; $ref beside object keywords merges like allOf;
//     beside other keywords (minLength…) it is an error. Alias cycles
//     (A = B, B = A) are errors.
//   - anyOf/oneOf of objects: a sealed interface, decoded by a
//     discriminating const member (or an Overrides.Tags rule) or else by
//     shape; members that cannot be told apart are an error. Encoding
//     refuses a nil or nil-pointer member where the schema does not let it
//     be null (an optional one that is nil is left out). A union of
//     primitives is a scalar union; one of every JSON kind is any value.
//     Encoding refuses what its decoder refuses: null unless the union
//     takes it, and a fraction or a number beyond int64 when it takes
//     integers but not numbers. A union mixing strings and objects is an
//     error.
//   - the members of a union of primitives keep their enum, const and
//     minimum/maximum (a $ref member is the schema it names, an anyOf
//     within an anyOf its members): a value must fit one member, exactly
//     one under oneOf, on decoding and encoding; the error names the
//     members ("anyOf/1: -5 is below the minimum 0"). A member repeated
//     under anyOf counts once; a union reaching itself through its members
//     is an error. anyOf [P, {type:
//     null}] keeps P's constraints on a nullable member or element. Such
//     constraints on a union that is any value (it takes arrays or every
//     JSON kind), other nested unions and members without a type are
//     errors.
//   - type [T, "null"] and anyOf [X, {type: null}]: null is kept (a nil
//     pointer, or a nil Value) and encoded again. An optional member that
//     may be null (a $ref to a nullable enum or scalar union too) is a
//     pointer to its required type (**T, *[]T, *MaybeText), so absent (nil)
//     and null (a pointer to nil, or to an empty value) each come back as
//     they came. An object that may be
//     null is supported as a member only: as a definition, an array item,
//     a map value or a _meta object it is an error. With an enum, null is a
//     value only if the enum lists it (a [T, "null"] member whose enum
//     leaves null out may not be null, and refuses it): a nullable string
//     enum definition is an enum type whose empty value stands for null; a
//     nullable member is a pointer whose value, when present, must be
//     listed.
//   - enum: string enums are a named string type with constants and
//     Valid; integer, number and boolean enums check their literals. Both
//     are checked on decoding and on encoding. An optional string enum
//     member, whose "" (its Go zero value) stands for absent, refuses a
//     present "" on decoding unless the enum lists it. An enum value or a const
//     that the declared type refuses is an error at its pointer.
//   - enum, const and minimum/maximum on array items and map values
//     (additionalProperties) of a primitive type: checked element by
//     element on decoding and encoding, a refused element named by its
//     index or key ("tags[1]", "m.k"). An element that may be null
//     ("type": [T, "null"] or anyOf [P, {type: null}]) and has such a
//     constraint is a pointer ([]*string, map[string]*int64): null, a nil
//     pointer, is allowed exactly where the schema allows it (an enum or
//     const that leaves null out refuses it), other values are checked.
//     On elements that are not primitives (an enum of objects) they are
//     errors.
//   - const: a member that must hold the literal, of its JSON type ("1" is
//     not 1); a required const is not a Go field, it is written for you.
//     An optional member that is only a const has the Go type of the
//     const's JSON kind (an object const a map, an array const a slice).
//     A named scalar with a const checks its value like an enum of one.
//   - minimum/maximum on a number, a property or a named definition:
//     checked on decoding and encoding (a named integer or number type
//     checks itself, wherever it is used).
//   - type integer: int64. As in JSON Schema, any number whose fractional
//     part is zero is an integer (1.0, 1e2, 10E-1), decoded exactly;
//     other numbers, and integers outside int64, are refused. An enum
//     value or a const of an integer beyond int64, and a minimum above it
//     or a maximum below it (compared as written: a minimum of
//     9223372036854775808 leaves no int64), are errors at their pointer.
//     An integer is compared with its bounds exactly, not as a float64;
//     a bound is held as a float64, so one that a float64 does not hold
//     closely enough to admit the same int64s (9007199254740993) is an
//     error too.
//   - arrays and maps: decoded element by element (unless every element
//     may be any JSON value), so that a refused element is named by its
//     index or key, however deep ("tools[1].name", "experimental.x").
//   - an object that names a member twice is refused at any depth, in
//     values decoded by encoding/json and kept raw too; a name's bytes
//     that are not UTF-8 are read as encoding/json reads them (U+FFFD).
//     Encoding refuses a map key or Extra name that is not UTF-8 (two
//     would be written as one name twice) and a value that contains
//     itself (encoding/json's cycle error).
//   - format byte: []byte, a base64 string on the wire (an array of
//     numbers, which encoding/json would read into a []byte, is refused).
//     An enum or a const on such a string is an error.
//   - Overrides.Raw members: json.RawMessage, checked to be of the kind
//     the schema requires.
//   - the boolean schema true, or no type: any value, null included (a
//     required one must be present but may be null). false: an error.
//   - recursion through fields, arrays, maps and unions: recursive Go
//     types; a struct that contains itself through required members only
//     is an error.
//   - patternProperties, prefixItems, not, if/then/else, unevaluated*,
//     $defs inside definitions, and every other keyword not listed in
//     schema/node.go: errors. minLength, maxLength, minItems and maxItems
//     are read but not enforced.
package generator

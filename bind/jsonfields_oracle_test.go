package bind

// The types of TestJSONFieldsOracle: this file is type-checked from source
// and its types are also reflected on, so jsonFields (go/types) and
// internal/jsonfields.TypeFields (reflect, encoding/json's rules) must
// pick the same members. Declarations only, no imports. (Two tagged
// fields of one name at one depth, which go vet refuses here, are in the
// jsonnames fixture.)

type oShallow struct {
	oInner
	Name int `json:"name"`
}

type oInner struct {
	Name  string `json:"name"`
	Other string
	deep
}

type deep struct {
	Name  bool `json:"name"`
	Deep  bool
	Other int `json:"Other"`
}

type oTagged struct {
	ID string `json:"ID"`
}

type oUntagged struct{ ID int }

type oCommon struct{ C, D string }

type oLeft struct{ oCommon }

type oRight struct {
	oCommon
	D int
}

type oCycle struct {
	//lint:ignore U1000 embedded for its promoted fields, which the oracle reads by reflection
	*oCycle
	A int
	B oText
}

type oText string

type oNamed struct{ Z int }

type oRules struct {
	oTagged
	oUntagged
	oLeft
	oRight
	*oCycle
	//lint:ignore U1000 embedded: a non-struct embedded type is a member of its own
	oText
	oNamed `json:"named"`
	//lint:ignore U1000 an unexported field, which no member comes from
	unexported int
	//lint:ignore SA5008 an invalid tag name, which encoding/json replaces by the field's name
	Bad   int `json:"a\\b"`
	Empty int `json:",omitempty"`
	//lint:ignore SA5008 the member named "-", as encoding/json reads this tag
	Dash  int `json:"-,"`
	Skip  int `json:"-"`
	Space int `json:"with space"`
}

var oracleTypes = []any{oShallow{}, oRules{}, oInner{}}

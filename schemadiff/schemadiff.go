// Package schemadiff tells what changed between two revisions of the MCP
// schema: types, their fields, union members and enum values, methods,
// error codes and deprecations, and the constraints the generated code
// enforces (what a struct does with undeclared members, bounds and formats
// of values). Its output is deterministic: changes are
// sorted by section, then by subject.
package schemadiff

import (
	"cmp"
	"slices"

	"github.com/mcpgen/mcpgen/schema"
)

// Section groups changes of one kind of thing.
type Section string

// The sections, in the order reports list them.
const (
	Methods      Section = "methods"
	Types        Section = "types"
	Fields       Section = "fields"
	ErrorCodes   Section = "error codes"
	Deprecations Section = "deprecations"
)

var sectionOrder = map[Section]int{Methods: 0, Types: 1, Fields: 2, ErrorCodes: 3, Deprecations: 4}

// Op is what happened to a subject.
type Op string

// The operations.
const (
	Added   Op = "added"
	Removed Op = "removed"
	Changed Op = "changed"
)

// Change is one difference between the revisions.
type Change struct {
	Section Section `json:"section"`
	Op      Op      `json:"op"`
	// Subject names what changed: a method ("tools/call"), a type
	// ("CallToolRequest"), a field ("Tool.icons"), an error code ("-32002").
	Subject string `json:"subject"`
	// Detail says how, for example "type string → integer", "now required",
	// "request, params InitializeRequestParams".
	Detail string `json:"detail,omitzero"`
}

// Report is every change from Old to New.
type Report struct {
	Old     string   `json:"old"`
	New     string   `json:"new"`
	Changes []Change `json:"changes"`
}

// Diff compares two models.
func Diff(old, new *schema.Model) *Report {
	d := &differ{}
	d.methods(old, new)
	d.types(old, new)
	d.errorCodes(old, new)
	slices.SortStableFunc(d.out, func(a, b Change) int {
		return cmp.Or(
			cmp.Compare(sectionOrder[a.Section], sectionOrder[b.Section]),
			cmp.Compare(a.Subject, b.Subject),
			cmp.Compare(opOrder(a.Op), opOrder(b.Op)),
		) // equal keys keep the order of comparison, which is deterministic
	})
	if d.out == nil {
		d.out = []Change{}
	}
	return &Report{Old: old.Version, New: new.Version, Changes: d.out}
}

func opOrder(op Op) int {
	switch op {
	case Removed:
		return 0
	case Added:
		return 1
	}
	return 2
}

type differ struct{ out []Change }

func (d *differ) add(s Section, op Op, subject, detail string) {
	d.out = append(d.out, Change{Section: s, Op: op, Subject: subject, Detail: detail})
}

// Filter returns the changes of one section.
func (r *Report) Filter(s Section) []Change {
	var out []Change
	for _, c := range r.Changes {
		if c.Section == s {
			out = append(out, c)
		}
	}
	return out
}

// Has reports whether the report holds a change of section s, operation op
// and subject.
func (r *Report) Has(s Section, op Op, subject string) bool {
	return slices.ContainsFunc(r.Changes, func(c Change) bool {
		return c.Section == s && c.Op == op && c.Subject == subject
	})
}

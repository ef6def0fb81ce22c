package schemadiff_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/internal/specdir"
	"github.com/mcpgen/mcpgen/schema"
	"github.com/mcpgen/mcpgen/schemadiff"
)

// TestDiff2025To2026 compares the two latest revisions of the spec.
func TestDiff2025To2026(t *testing.T) {
	old, err := schema.Load(specdir.Schema(t, "2025-11-25"), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	new, err := schema.Load(specdir.Schema(t, "2026-07-28"), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := schemadiff.Diff(old, new)
	for _, c := range []struct {
		s       schemadiff.Section
		op      schemadiff.Op
		subject string
	}{
		{schemadiff.Methods, schemadiff.Removed, "initialize"},
		{schemadiff.Methods, schemadiff.Removed, "ping"},
		{schemadiff.Methods, schemadiff.Added, "server/discover"},
		{schemadiff.Methods, schemadiff.Added, "subscriptions/listen"},
		{schemadiff.Types, schemadiff.Removed, "InitializeRequest"},
		{schemadiff.Types, schemadiff.Added, "DiscoverResult"},
		{schemadiff.Fields, schemadiff.Added, "CallToolResult.resultType"},
		{schemadiff.ErrorCodes, schemadiff.Added, "-32022"},
		{schemadiff.Deprecations, schemadiff.Added, "CreateMessageRequest"},
	} {
		if !r.Has(c.s, c.op, c.subject) {
			t.Errorf("no %s %s %s", c.s, c.op, c.subject)
		}
	}
	// Nothing is both added and removed, and the reverse diff mirrors it.
	back := schemadiff.Diff(new, old)
	for _, c := range r.Filter(schemadiff.Methods) {
		switch c.Op {
		case schemadiff.Added:
			if !back.Has(schemadiff.Methods, schemadiff.Removed, c.Subject) {
				t.Errorf("reverse diff lacks removed %s", c.Subject)
			}
		case schemadiff.Removed:
			if !back.Has(schemadiff.Methods, schemadiff.Added, c.Subject) {
				t.Errorf("reverse diff lacks added %s", c.Subject)
			}
		}
	}
}

// TestDiffSeesObjectsThatStopBeingOpen: 2025-11-25 drops the
// additionalProperties of the sampling and elicitation capabilities (and
// of RequestParams), so their generated types lose their Extra field; the
// diff says so.
func TestDiffSeesObjectsThatStopBeingOpen(t *testing.T) {
	old, err := schema.Load(specdir.Schema(t, "2025-06-18"), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	new, err := schema.Load(specdir.Schema(t, "2025-11-25"), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := schemadiff.Diff(old, new)
	for _, name := range []string{"ClientCapabilitiesSampling", "ClientCapabilitiesElicitation", "RequestParams"} {
		if !r.Has(schemadiff.Types, schemadiff.Changed, name) {
			t.Errorf("no change of %s", name)
		}
	}
}

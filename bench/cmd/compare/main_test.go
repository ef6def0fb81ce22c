package main

import (
	"slices"
	"testing"

	"github.com/mcpgen/mcpgen/bench/internal/driver"
)

func names(srvs []driver.Server, rows []driver.Measurement) (s, r []string) {
	for _, x := range srvs {
		s = append(s, x.Name)
	}
	for _, x := range rows {
		r = append(r, x.Name)
	}
	return s, r
}

func TestSelectOnly(t *testing.T) {
	all, rows := servers(), driver.DefaultMeasurements()
	for _, tc := range []struct {
		only          string
		servers, rows int
		first         string
	}{
		{"", 6, 11, "mcpgen"},
		{"stdio", 6, 5, "mcpgen"},
		{"http-16,floor-raw", 1, 1, "floor-raw"},
		{" mcp-go , go-sdk ,inproc", 2, 1, "mcp-go"},
		{"go-sdk,go-sdk", 1, 11, "go-sdk"},
	} {
		s, r, err := selectOnly(tc.only, all, rows)
		if err != nil {
			t.Fatalf("%q: %v", tc.only, err)
		}
		sn, rn := names(s, r)
		if len(s) != tc.servers || len(r) != tc.rows || sn[0] != tc.first {
			t.Errorf("selectOnly(%q) = %v %v", tc.only, sn, rn)
		}
	}
	if _, _, err := selectOnly("stdio-7", all, rows); err == nil {
		t.Error("unknown token: want error")
	}
}

// TestLegacyServers: -legacy adds mcpgen, go-sdk and mcp-go once more,
// spoken to through a legacy session on the stdio and HTTP rows only.
func TestLegacyServers(t *testing.T) {
	got := legacyServers(servers())
	var cols []string
	for _, s := range got {
		cols = append(cols, s.Name)
		if s.Protocol != driver.Legacy || s.InProcess != nil {
			t.Errorf("%s: protocol %v, in process %v; want legacy, none", s.Name, s.Protocol, s.InProcess)
		}
		for _, k := range []driver.Kind{driver.KindInProc, driver.KindListen, driver.KindStartup} {
			if slices.Contains(s.Kinds, k) {
				t.Errorf("%s runs %v rows", s.Name, k)
			}
		}
		if !slices.Contains(s.Kinds, driver.KindStdio) || !slices.Contains(s.Kinds, driver.KindHTTP) {
			t.Errorf("%s: kinds %v, want stdio and http", s.Name, s.Kinds)
		}
	}
	if want := []string{"mcpgen-legacy", "go-sdk-legacy", "mcp-go-legacy"}; !slices.Equal(cols, want) {
		t.Errorf("columns %v, want %v", cols, want)
	}
	for _, s := range servers() {
		if s.Protocol != driver.Modern {
			t.Errorf("-legacy changed %s's protocol", s.Name)
		}
	}
}

package driver

import "testing"

func TestServerSkips(t *testing.T) {
	listen := Measurement{Name: "listen-1000", Kind: KindListen, Workload: "touch"}
	stdio := Measurement{Name: "stdio-16", Kind: KindStdio}
	http := Measurement{Name: "http-16", Kind: KindHTTP}
	for _, tc := range []struct {
		s    Server
		m    Measurement
		runs bool
	}{
		{Server{Name: "peer"}, listen, true},
		{Server{Name: "floor", Floor: true}, stdio, true},
		{Server{Name: "floor", Floor: true}, listen, false},
		{Server{Name: "conc", Floor: true, NoHTTP: true}, http, false},
		{Server{Name: "noka", Kinds: []Kind{KindListen}}, listen, true},
		{Server{Name: "noka", Kinds: []Kind{KindListen}}, stdio, false},
		{Server{Name: "noka", Kinds: []Kind{KindListen}}, http, false},
	} {
		if got := tc.s.skips(tc.m) == ""; got != tc.runs {
			t.Errorf("%s on %s: runs %v, want %v (%q)", tc.s.Name, tc.m.Name, got, tc.runs, tc.s.skips(tc.m))
		}
	}
}

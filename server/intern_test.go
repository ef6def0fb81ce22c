package server

import (
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// TestInternName checks that internName is string(b), shared by the calls
// that carry the same name, never a view of b, and right under concurrent
// calls whose names share slots.
func TestInternName(t *testing.T) {
	b := []byte("weather_current")
	first := internName(b)
	second := internName([]byte("weather_current"))
	if first != "weather_current" || unsafe.StringData(first) != unsafe.StringData(second) {
		t.Fatalf("internName gave %q and %q, not one string", first, second)
	}
	copy(b, "xxxxxxx")
	if first != "weather_current" {
		t.Fatalf("interned name changed with its bytes: %q", first)
	}
	long := strings.Repeat("n", maxInterned+1)
	if got := internName([]byte(long)); got != long {
		t.Fatalf("a long name: %q", got)
	}
	if got := internName(nil); got != "" {
		t.Fatalf("no name: %q", got)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 2000 {
				name := strings.Repeat("t", 1+(i+g)%40) + string(rune('a'+i%26))
				if got := internName([]byte(name)); got != name {
					t.Errorf("internName(%q) = %q", name, got)
					return
				}
			}
		})
	}
	wg.Wait()
}

package support

import "testing"

// TestNullKeptTellsNullFromAbsent checks the decoding of an optional
// member that may be null: null is a pointer to the inner decoder's null
// (nil), a value a pointer to it, an error the inner decoder's; and the
// value its checks see is null (nil) when the member is absent.
func TestNullKeptTellsNullFromAbsent(t *testing.T) {
	dec := nullKept(optionalInteger)
	if p, err := dec([]byte("null")); err != nil || p == nil || *p != nil {
		t.Errorf("null: %v, %v; want a pointer to nil", p, err)
	}
	if p, err := dec([]byte("7")); err != nil || p == nil || *p == nil || **p != 7 {
		t.Errorf("7: %v, %v", p, err)
	}
	if p, err := dec([]byte(`"7"`)); err == nil || p != nil {
		t.Errorf(`"7": %v, %v; want an error`, p, err)
	}
	var absent **int64
	if v := nullKeptValue(absent); v != nil {
		t.Errorf("absent: %v, want nil", v)
	}
	seven := int64(7)
	if v := nullKeptValue(&[]*int64{&seven}[0]); v == nil || *v != 7 {
		t.Errorf("present: %v", v)
	}
}

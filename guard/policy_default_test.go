package guard

import (
	"reflect"
	"testing"
)

// TestDefaultPolicyCopiesApart: DefaultPolicy is read once and handed out as copies;
// changing every word of one copy (as Extend or a caller might) leaves the next copy
// what guard.yaml and guard_vocab.yaml say.
func TestDefaultPolicyCopiesApart(t *testing.T) {
	first := DefaultPolicy()
	n := scribble(reflect.ValueOf(&first).Elem())
	if n < 1000 {
		t.Fatalf("changed %d words of the default policy; it holds thousands", n)
	}
	if second := DefaultPolicy(); !reflect.DeepEqual(second, buildDefaultPolicy()) {
		t.Error("a change to one copy of the default policy shows in the next")
	}
}

// scribble overwrites every string inside v, in every list and struct, and says how many.
func scribble(v reflect.Value) int {
	switch v.Kind() {
	case reflect.String:
		v.SetString("scribbled")
		return 1
	case reflect.Slice:
		n := 0
		for i := range v.Len() {
			n += scribble(v.Index(i))
		}
		return n
	case reflect.Struct:
		n := 0
		for i := range v.NumField() {
			if v.Field(i).CanSet() {
				n += scribble(v.Field(i))
			}
		}
		return n
	}
	return 0
}

// TestTextReadersApart: the readers of two guards share the Unicode tables built once,
// but a guard's vocabulary stays its own.
func TestTextReadersApart(t *testing.T) {
	a, b := newTextReader(), newTextReader()
	if a == b || &a.stable[0] != &b.stable[0] {
		t.Fatal("want two readers over one set of tables")
	}
	a.vocab = map[string]bool{"zahlen": true}
	if b.vocab != nil || baseTextReader().vocab != nil {
		t.Error("one reader's vocabulary shows in another's")
	}
}

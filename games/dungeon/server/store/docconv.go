package store

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// The direct conversion between Go values and documents: what ToDoc and
// FromDoc did through a JSON round trip (json.Marshal, then a decode with
// UseNumber and a walk turning numbers into int64 or float64; json.Marshal
// of the document, then json.Unmarshal), done by walking the value with
// reflection, with the same result. A type's walk is planned once and
// cached. What encoding/json does that the walk does not (a type with its
// own MarshalJSON or UnmarshalJSON, an embedded struct, a ",string"
// option, float32, json.Number) goes through JSON for that value only, so
// every value converts as encoding/json would convert it. The tests hold
// the two against each other (docconv_test.go).

var (
	marshalerType       = reflect.TypeFor[json.Marshaler]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	isZeroerType        = reflect.TypeFor[interface{ IsZero() bool }]()
	numberType          = reflect.TypeFor[json.Number]()
	anyType             = reflect.TypeFor[any]()
)

// field is a struct field as encoding/json sees it.
type field struct {
	name      string
	index     int
	omitEmpty bool
	omitZero  bool
}

// plan is how one struct type converts: its fields, or viaJSON when the
// walk cannot follow encoding/json's rules for it.
type plan struct {
	fields  []field
	byName  map[string]int // name → index in fields
	viaJSON bool
}

var plans sync.Map // reflect.Type → *plan

// planOf returns the cached plan of struct type t.
func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p := &plan{byName: map[string]int{}}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Anonymous {
			p.viaJSON = true // promotion rules: leave them to encoding/json
			break
		}
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		fd := field{name: name, index: i}
		for opts != "" {
			var o string
			o, opts, _ = strings.Cut(opts, ",")
			switch o {
			case "omitempty":
				fd.omitEmpty = true
			case "omitzero":
				fd.omitZero = true
			case "string":
				p.viaJSON = true
			}
		}
		if _, dup := p.byName[name]; dup {
			p.viaJSON = true // conflicting names: encoding/json's rules
		}
		p.byName[name] = len(p.fields)
		p.fields = append(p.fields, fd)
	}
	got, _ := plans.LoadOrStore(t, p)
	return got.(*plan)
}

// info is what the walk needs to know of a type, found once (method set
// lookups are slow) and cached.
type info struct {
	custom      bool // its own JSON methods, or a kind left to encoding/json
	unmarshaler bool // UnmarshalJSON, on the value or its pointer
	text        bool // MarshalText on the value
	textPtr     bool // MarshalText on its pointer only
	textUnmarsh bool // UnmarshalText on its pointer
	zeroer      bool // IsZero on the value
	zeroerPtr   bool // IsZero on its pointer only
}

var infos sync.Map // reflect.Type → *info

func infoOf(t reflect.Type) *info {
	if i, ok := infos.Load(t); ok {
		return i.(*info)
	}
	pt := reflect.PointerTo(t)
	i := &info{
		unmarshaler: t.Implements(unmarshalerType) || pt.Implements(unmarshalerType),
		text:        t.Implements(textMarshalerType),
		textUnmarsh: pt.Implements(textUnmarshalerType),
		zeroer:      t.Implements(isZeroerType),
	}
	i.textPtr = !i.text && pt.Implements(textMarshalerType)
	i.zeroerPtr = !i.zeroer && pt.Implements(isZeroerType)
	i.custom = i.unmarshaler || t.Implements(marshalerType) || pt.Implements(marshalerType) ||
		t == numberType || t.Kind() == reflect.Float32
	got, _ := infos.LoadOrStore(t, i)
	return got.(*info)
}

// custom reports whether values of t (addressable or not) convert through
// their own JSON methods, or are a kind the walk leaves to encoding/json.
func custom(t reflect.Type) bool { return infoOf(t).custom }

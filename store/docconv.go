package store

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
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

// ---- Encoding ----

// encodeDoc converts v to a document without JSON (see the top of this
// file).
func encodeDoc(v any) (map[string]any, error) {
	rv := reflect.ValueOf(v)
	out, err := encodeValue(rv)
	if err != nil {
		return nil, err
	}
	m, ok := out.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: document is not a JSON object", ErrInvalid)
	}
	return m, nil
}

// encodeValue converts one value as json.Marshal and the conversion of
// its result would.
func encodeValue(v reflect.Value) (any, error) {
	if !v.IsValid() {
		return nil, nil
	}
	t := v.Type()
	if t.Kind() == reflect.Pointer && v.IsNil() {
		return nil, nil
	}
	if t.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil, nil
		}
		return encodeValue(v.Elem())
	}
	ti := infoOf(t)
	if ti.custom || (t.Kind() == reflect.Struct && planOf(t).viaJSON) {
		return encodeViaJSON(v)
	}
	if t.Kind() != reflect.Pointer && (ti.text || (ti.textPtr && v.CanAddr())) {
		m := v.Interface()
		if !ti.text {
			m = v.Addr().Interface()
		}
		b, err := m.(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return nil, &json.MarshalerError{Type: t, Err: err}
		}
		return validString(string(b)), nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.String:
		return validString(v.String()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := v.Uint()
		if u > math.MaxInt64 {
			return nil, fmt.Errorf("%w: integer %d outside int64", ErrInvalid, u)
		}
		return int64(u), nil
	case reflect.Float64:
		return encodeFloat(v.Float())
	case reflect.Pointer:
		return encodeValue(v.Elem())
	case reflect.Struct:
		return encodeStruct(v)
	case reflect.Map:
		return encodeMap(v)
	case reflect.Slice:
		if v.IsNil() {
			return nil, nil
		}
		if e := infoOf(t.Elem()); t.Elem().Kind() == reflect.Uint8 && !e.custom && !e.text && !e.textPtr {
			return base64.StdEncoding.EncodeToString(v.Bytes()), nil
		}
		fallthrough
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			e, err := encodeValue(v.Index(i))
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	}
	return nil, &json.UnsupportedTypeError{Type: t}
}

// encodeFloat is a float64 as JSON writes it and the conversion reads it
// back: an integral value under 1e21 is written without a point or an
// exponent, so it becomes an int64 (ErrInvalid beyond int64); others keep
// their float64 value exactly (JSON writes the shortest representation
// that reads back as the same float64). NaN and infinities are not JSON.
func encodeFloat(f float64) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	a := math.Abs(f)
	if a >= 1e21 || f != math.Trunc(f) || (a < 1e-6 && f != 0) {
		return f, nil
	}
	if a < 1<<53 {
		return int64(f), nil // exact: JSON writes every digit
	}
	// JSON writes the shortest digits that read back as f, then zeros:
	// the integer read is those digits, not always f itself.
	s := strconv.FormatFloat(f, 'f', -1, 64)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%w: integer %s outside int64", ErrInvalid, s)
	}
	return n, nil
}

// validString is s as encoding/json writes it: each byte of an invalid
// UTF-8 sequence becomes U+FFFD.
func validString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func encodeStruct(v reflect.Value) (any, error) {
	p := planOf(v.Type())
	out := make(map[string]any, len(p.fields))
	for _, f := range p.fields {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmpty(fv) || f.omitZero && isZero(fv) {
			continue
		}
		e, err := encodeValue(fv)
		if err != nil {
			return nil, err
		}
		out[f.name] = e
	}
	return out, nil
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// isZero is encoding/json's omitzero test: the type's IsZero method if it
// has one, else the zero value.
func isZero(v reflect.Value) bool {
	t := v.Type()
	ti := infoOf(t)
	switch {
	case ti.zeroer:
		if (t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface) && v.IsNil() {
			return true
		}
		return v.Interface().(interface{ IsZero() bool }).IsZero()
	case ti.zeroerPtr:
		if !v.CanAddr() {
			c := reflect.New(t).Elem()
			c.Set(v)
			v = c
		}
		return v.Addr().Interface().(interface{ IsZero() bool }).IsZero()
	}
	return v.IsZero()
}

func encodeMap(v reflect.Value) (any, error) {
	if v.IsNil() {
		return nil, nil
	}
	kt := v.Type().Key()
	out := make(map[string]any, v.Len())
	it := v.MapRange()
	for it.Next() {
		var k string
		switch {
		case kt.Kind() == reflect.String:
			k = validString(it.Key().String())
		case infoOf(kt).text:
			if kt.Kind() == reflect.Pointer && it.Key().IsNil() {
				k = ""
				break
			}
			b, err := it.Key().Interface().(encoding.TextMarshaler).MarshalText()
			if err != nil {
				return nil, &json.MarshalerError{Type: kt, Err: err}
			}
			k = validString(string(b))
		case kt.Kind() >= reflect.Int && kt.Kind() <= reflect.Int64:
			k = strconv.FormatInt(it.Key().Int(), 10)
		case kt.Kind() >= reflect.Uint && kt.Kind() <= reflect.Uintptr:
			k = strconv.FormatUint(it.Key().Uint(), 10)
		default:
			return nil, &json.UnsupportedTypeError{Type: v.Type()}
		}
		e, err := encodeValue(it.Value())
		if err != nil {
			return nil, err
		}
		out[k] = e
	}
	return out, nil
}

// encodeViaJSON converts v through its JSON, as ToDoc did.
func encodeViaJSON(v reflect.Value) (any, error) {
	var x any
	if v.CanAddr() {
		x = v.Addr().Interface() // pointer-receiver methods, as json.Marshal of the parent finds them
	} else {
		x = v.Interface()
	}
	b, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	return jsonToValue(b)
}

// ---- Decoding ----

// decodeDoc fills v (a non-nil pointer) from document m without JSON, as
// json.Unmarshal of json.Marshal(m) would (see the top of this file). It
// fills a zero value as json.Unmarshal does; into a value already holding
// data it overwrites what m names.
func decodeDoc(m map[string]any, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &json.InvalidUnmarshalError{Type: reflect.TypeOf(v)}
	}
	return decodeValue(m, rv.Elem())
}

// decodeValue stores document value d (nil, bool, string, int64, float64,
// []any, map[string]any) in v, which is settable.
func decodeValue(d any, v reflect.Value) error {
	switch d.(type) {
	case nil, bool, string, int64, float64, []any, map[string]any:
	default:
		// Not a value ToDoc makes (a database's timestamp, bytes; a value
		// JSON cannot hold): json.Marshal's and json.Unmarshal's rules.
		return decodeViaJSON(d, v)
	}
	t := v.Type()
	ti := infoOf(t)
	if d == nil {
		switch {
		case t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface:
			v.SetZero() // json.Unmarshal sets a pointer to nil, even one to an Unmarshaler
			return nil
		case ti.unmarshaler:
			return decodeViaJSON(d, v) // its UnmarshalJSON gets the null
		case t.Kind() == reflect.Map || t.Kind() == reflect.Slice:
			v.SetZero()
		}
		return nil // null leaves any other value as it is
	}
	if ti.custom || (t.Kind() == reflect.Struct && planOf(t).viaJSON) ||
		(t.Kind() == reflect.Pointer && (custom(t.Elem()) || t.Elem().Kind() == reflect.Struct && planOf(t.Elem()).viaJSON)) {
		return decodeViaJSON(d, v)
	}
	if t.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return decodeValue(d, v.Elem())
	}
	if ti.textUnmarsh {
		if s, ok := d.(string); ok {
			return v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s))
		}
		return decodeViaJSON(d, v) // json.Unmarshal's rules for a non-string
	}
	mismatch := func() error {
		return &json.UnmarshalTypeError{Value: docKind(d), Type: t}
	}
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return decodeViaJSON(d, v)
		}
		v.Set(reflect.ValueOf(asJSONAny(d)))
		return nil
	case reflect.Bool:
		b, ok := d.(bool)
		if !ok {
			return mismatch()
		}
		v.SetBool(b)
	case reflect.String:
		s, ok := d.(string)
		if !ok {
			return mismatch()
		}
		v.SetString(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := docInt(d)
		if !ok || v.OverflowInt(n) {
			return mismatch()
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if f, ok := d.(float64); ok && f >= 1<<63 {
			return decodeViaJSON(d, v) // beyond int64: json.Unmarshal's rules
		}
		n, ok := docInt(d)
		if !ok || n < 0 || v.OverflowUint(uint64(n)) {
			return mismatch()
		}
		v.SetUint(uint64(n))
	case reflect.Float64:
		switch x := d.(type) {
		case float64:
			v.SetFloat(x)
		case int64:
			v.SetFloat(float64(x))
		default:
			return mismatch()
		}
	case reflect.Struct:
		m, ok := d.(map[string]any)
		if !ok {
			return mismatch()
		}
		p := planOf(t)
		keys := fieldKeys(p, m)
		for _, k := range keys {
			e := m[k]
			i, ok := p.byName[k]
			if !ok {
				if i, ok = p.fold(k); !ok {
					// Unknown fields are ignored, as json.Unmarshal does,
					// once the document could be JSON at all.
					if !plainDoc(e) {
						if _, err := json.Marshal(e); err != nil {
							return err
						}
					}
					continue
				}
			}
			if err := decodeValue(e, v.Field(p.fields[i].index)); err != nil {
				return err
			}
		}
	case reflect.Map:
		m, ok := d.(map[string]any)
		if !ok || t.Key().Kind() != reflect.String {
			if ok {
				return decodeViaJSON(d, v)
			}
			return mismatch()
		}
		if v.IsNil() {
			v.Set(reflect.MakeMapWithSize(t, len(m)))
		}
		for k, e := range m {
			ev := reflect.New(t.Elem()).Elem()
			if err := decodeValue(e, ev); err != nil {
				return err
			}
			v.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), ev)
		}
	case reflect.Slice:
		if s, ok := d.(string); ok && t.Elem().Kind() == reflect.Uint8 {
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return err
			}
			v.SetBytes(b)
			return nil
		}
		l, ok := d.([]any)
		if !ok {
			return mismatch()
		}
		s := reflect.MakeSlice(t, len(l), len(l))
		for i, e := range l {
			if err := decodeValue(e, s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Array:
		l, ok := d.([]any)
		if !ok {
			return mismatch()
		}
		for i := 0; i < v.Len(); i++ {
			if i < len(l) {
				if err := decodeValue(l[i], v.Index(i)); err != nil {
					return err
				}
			} else {
				v.Index(i).SetZero()
			}
		}
	default:
		return decodeViaJSON(d, v)
	}
	return nil
}

// fieldKeys returns m's keys in the order to decode them: any order when
// each names a field exactly (or none); otherwise sorted, as the JSON of
// m lists them, so that of two keys matching one field case-insensitively
// the later wins, as in json.Unmarshal.
func fieldKeys(p *plan, m map[string]any) []string {
	keys := make([]string, 0, len(m))
	folded := false
	for k := range m {
		keys = append(keys, k)
		if _, ok := p.byName[k]; !ok && !folded {
			_, folded = p.fold(k)
		}
	}
	if folded {
		slices.Sort(keys)
	}
	return keys
}

// plainDoc reports whether d holds only the values ToDoc makes.
func plainDoc(d any) bool {
	switch x := d.(type) {
	case nil, bool, string, int64, float64:
		return true
	case []any:
		for _, e := range x {
			if !plainDoc(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !plainDoc(e) {
				return false
			}
		}
		return true
	}
	return false
}

// fold finds a field whose name equals k case-insensitively, as
// json.Unmarshal matches keys when no name matches exactly.
func (p *plan) fold(k string) (int, bool) {
	for i, f := range p.fields {
		if strings.EqualFold(f.name, k) {
			return i, true
		}
	}
	return 0, false
}

// docInt is d as an integer, if it is one (a float64 with an integral
// value is: JSON writes it without a point).
func docInt(d any) (int64, bool) {
	switch x := d.(type) {
	case int64:
		return x, true
	case float64:
		if n, err := encodeFloat(x); err == nil {
			if i, ok := n.(int64); ok {
				return i, true
			}
		}
	}
	return 0, false
}

// asJSONAny is d as json.Unmarshal leaves it in an interface{}: numbers
// as float64.
func asJSONAny(d any) any {
	switch x := d.(type) {
	case int64:
		return float64(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = asJSONAny(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = asJSONAny(e)
		}
		return out
	}
	return d
}

func docKind(d any) string {
	switch d.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case string:
		return "string"
	case int64, float64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", d)
}

// decodeViaJSON stores d in v through its JSON, as FromDoc did.
func decodeViaJSON(d any, v reflect.Value) error {
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v.Addr().Interface())
}

// ---- JSON to document values ----

// jsonToValue converts a JSON value's bytes (as json.Marshal writes them)
// to document values: integers int64 exactly (ErrInvalid beyond int64),
// other numbers float64.
func jsonToValue(b []byte) (any, error) {
	p := jsonParser{b: b}
	p.space()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.b) {
		return nil, p.fail("after the value")
	}
	return v, nil
}

// jsonParser reads one JSON value in one pass, building its document
// value as it validates it.
type jsonParser struct {
	b []byte
	i int
}

var errSyntax = errors.New("store: invalid JSON")

func (p *jsonParser) fail(what string) error {
	return fmt.Errorf("%w at byte %d: %s", errSyntax, p.i, what)
}

func (p *jsonParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value() (any, error) {
	if p.i >= len(p.b) {
		return nil, p.fail("unexpected end")
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case p.lit("true"):
		return true, nil
	case p.lit("false"):
		return false, nil
	case p.lit("null"):
		return nil, nil
	}
	return nil, p.fail("unexpected character")
}

func (p *jsonParser) lit(s string) bool {
	if len(p.b)-p.i >= len(s) && string(p.b[p.i:p.i+len(s)]) == s {
		p.i += len(s)
		return true
	}
	return false
}

func (p *jsonParser) object() (any, error) {
	p.i++ // {
	m := map[string]any{}
	p.space()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return m, nil
	}
	for {
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, p.fail("want a key")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, p.fail("want ':'")
		}
		p.i++
		p.space()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		m[k] = v
		p.space()
		if p.i >= len(p.b) {
			return nil, p.fail("unexpected end")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return m, nil
		default:
			return nil, p.fail("want ',' or '}'")
		}
	}
}

func (p *jsonParser) array() (any, error) {
	p.i++ // [
	l := []any{}
	p.space()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return l, nil
	}
	for {
		p.space()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		l = append(l, v)
		p.space()
		if p.i >= len(p.b) {
			return nil, p.fail("unexpected end")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return l, nil
		default:
			return nil, p.fail("want ',' or ']'")
		}
	}
}

// str reads a string: one without escapes or control characters is taken
// as it is (invalid UTF-8 replaced as encoding/json replaces it); one with
// escapes is left to encoding/json.
func (p *jsonParser) str() (string, error) {
	start := p.i
	p.i++ // "
	plain := true
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			p.i++
			if plain {
				return validString(string(p.b[start+1 : p.i-1])), nil
			}
			var s string
			if err := json.Unmarshal(p.b[start:p.i], &s); err != nil {
				return "", fmt.Errorf("%w: %v", errSyntax, err)
			}
			return s, nil
		case c == '\\':
			plain = false
			p.i += 2
		case c < 0x20:
			return "", p.fail("control character in a string")
		default:
			p.i++
		}
	}
	return "", p.fail("unterminated string")
}

// number reads a number: an integer (no '.', no exponent) becomes an
// int64, exactly, or ErrInvalid; any other a float64.
func (p *jsonParser) number() (any, error) {
	start := p.i
	if p.b[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	intStart := p.i
	if n := digits(); n == 0 || n > 1 && p.b[intStart] == '0' {
		return nil, p.fail("malformed number")
	}
	integer := true
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		integer = false
		if digits() == 0 {
			return nil, p.fail("malformed number")
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		integer = false
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.fail("malformed number")
		}
	}
	s := string(p.b[start:p.i])
	if integer {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: integer %s outside int64", ErrInvalid, s)
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("%w: number %s: %v", ErrInvalid, s, err)
	}
	return f, nil
}

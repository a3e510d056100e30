// The raw commit's writes: protobuf built straight from the documents'
// values, without the client library's reflection.

package fsstore

import (
	"fmt"
	"slices"
	"strings"

	"cloud.google.com/go/firestore"
	pb "cloud.google.com/go/firestore/apiv1/firestorepb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// toWrites builds the protobuf of the queued writes, as the library's
// WriteBatch builds them (its docref.go): a create is an update of the
// whole document conditional on its not existing; a set, an update of the
// whole document without condition; an update, the document holding the
// updated fields' values with a mask of their paths (sorted; a deleted
// field in the mask only) conditional on the document's update time, or
// on its existing. Two updates of one field, or of a field and a field
// inside it, are an error, as a value of a type no document of this
// store holds (toValue).
func toWrites(ws []write) ([]*pb.Write, error) {
	out := make([]*pb.Write, len(ws))
	for i, w := range ws {
		doc := &pb.Document{Name: w.ref.Path}
		pw := &pb.Write{Operation: &pb.Write_Update{Update: doc}}
		var err error
		switch w.op {
		case opCreate, opSet:
			if doc.Fields, err = toFields(w.data); err != nil {
				return nil, fmt.Errorf("fsstore: %s: %w", w.ref.Path, err)
			}
			if w.op == opCreate {
				pw.CurrentDocument = &pb.Precondition{ConditionType: &pb.Precondition_Exists{Exists: false}}
			}
		case opUpdate:
			if doc.Fields, pw.UpdateMask, err = updateOf(w.ups); err != nil {
				return nil, fmt.Errorf("fsstore: %s: %w", w.ref.Path, err)
			}
			if w.updated.IsZero() {
				pw.CurrentDocument = &pb.Precondition{ConditionType: &pb.Precondition_Exists{Exists: true}}
			} else {
				pw.CurrentDocument = &pb.Precondition{ConditionType: &pb.Precondition_UpdateTime{UpdateTime: timestamppb.New(w.updated)}}
			}
		}
		out[i] = pw
	}
	return out, nil
}

// updateOf is the fields and the mask of an update of ups.
func updateOf(ups []firestore.Update) (map[string]*pb.Value, *pb.DocumentMask, error) {
	if len(ups) == 0 {
		return nil, nil, fmt.Errorf("no paths to update")
	}
	fields := make(map[string]*pb.Value, len(ups))
	paths := make([]string, 0, len(ups))
	for _, u := range ups {
		fp := u.FieldPath
		if len(fp) == 0 || u.Path != "" {
			return nil, nil, fmt.Errorf("an update by a dotted path or no path (%q)", u.Path)
		}
		parts := make([]string, len(fp))
		for j, f := range fp {
			if f == "" {
				return nil, nil, fmt.Errorf("an empty field name in %q", fp)
			}
			parts[j] = fieldPath(f)
		}
		paths = append(paths, strings.Join(parts, "."))
		if u.Value == firestore.Delete {
			continue // in the mask, not in the fields: deleted
		}
		v, err := toValue(u.Value)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", paths[len(paths)-1], err)
		}
		at := fields
		for _, f := range fp[:len(fp)-1] {
			m := at[f].GetMapValue()
			if m == nil {
				m = &pb.MapValue{Fields: map[string]*pb.Value{}}
				at[f] = &pb.Value{ValueType: &pb.Value_MapValue{MapValue: m}}
			}
			at = m.Fields
		}
		at[fp[len(fp)-1]] = v
	}
	slices.Sort(paths)
	for i := 1; i < len(paths); i++ {
		if p := paths[i-1]; paths[i] == p || strings.HasPrefix(paths[i], p+".") {
			return nil, nil, fmt.Errorf("field %s updated twice (%s)", p, paths[i])
		}
	}
	return fields, &pb.DocumentMask{FieldPaths: paths}, nil
}

// toFields converts a document (store.ToDoc's) to its protobuf fields.
func toFields(d map[string]any) (map[string]*pb.Value, error) {
	out := make(map[string]*pb.Value, len(d))
	for k, v := range d {
		x, err := toValue(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = x
	}
	return out, nil
}

// toValue converts a document value, one of those store.ToDoc makes (nil,
// bool, string, int64, float64, []any, map[string]any; a nil slice or
// map is null, as the library has it), to its protobuf, as the library's
// conversion does for them. A value of any other type is an error.
func toValue(v any) (*pb.Value, error) {
	switch x := v.(type) {
	case nil:
		return nullValue, nil
	case bool:
		return &pb.Value{ValueType: &pb.Value_BooleanValue{BooleanValue: x}}, nil
	case string:
		return &pb.Value{ValueType: &pb.Value_StringValue{StringValue: x}}, nil
	case int64:
		return &pb.Value{ValueType: &pb.Value_IntegerValue{IntegerValue: x}}, nil
	case float64:
		return &pb.Value{ValueType: &pb.Value_DoubleValue{DoubleValue: x}}, nil
	case []any:
		if x == nil {
			return nullValue, nil
		}
		vs := make([]*pb.Value, len(x))
		for i, e := range x {
			y, err := toValue(e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			vs[i] = y
		}
		return &pb.Value{ValueType: &pb.Value_ArrayValue{ArrayValue: &pb.ArrayValue{Values: vs}}}, nil
	case map[string]any:
		if x == nil {
			return nullValue, nil
		}
		f, err := toFields(x)
		if err != nil {
			return nil, err
		}
		return &pb.Value{ValueType: &pb.Value_MapValue{MapValue: &pb.MapValue{Fields: f}}}, nil
	}
	return nil, fmt.Errorf("a %T, which no document of this store holds", v)
}

// nullValue is the one null; protobuf values are only read once built.
var nullValue = &pb.Value{ValueType: &pb.Value_NullValue{NullValue: structpb.NullValue_NULL_VALUE}}

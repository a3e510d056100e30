package fsstore

import (
	"math"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	pb "cloud.google.com/go/firestore/apiv1/firestorepb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Expected values are written out by hand from Firestore's Value message
// (google/firestore/v1/document.proto): one oneof case per kind, a map's
// fields by name, an array's values in order.
func null() *pb.Value {
	return &pb.Value{ValueType: &pb.Value_NullValue{NullValue: structpb.NullValue_NULL_VALUE}}
}
func str(s string) *pb.Value   { return &pb.Value{ValueType: &pb.Value_StringValue{StringValue: s}} }
func i64(n int64) *pb.Value    { return &pb.Value{ValueType: &pb.Value_IntegerValue{IntegerValue: n}} }
func dbl(f float64) *pb.Value  { return &pb.Value{ValueType: &pb.Value_DoubleValue{DoubleValue: f}} }
func boolean(b bool) *pb.Value { return &pb.Value{ValueType: &pb.Value_BooleanValue{BooleanValue: b}} }
func arr(vs ...*pb.Value) *pb.Value {
	return &pb.Value{ValueType: &pb.Value_ArrayValue{ArrayValue: &pb.ArrayValue{Values: vs}}}
}
func mp(f map[string]*pb.Value) *pb.Value {
	return &pb.Value{ValueType: &pb.Value_MapValue{MapValue: &pb.MapValue{Fields: f}}}
}

// TestToValue: every kind of value a document holds, as Firestore's
// protobuf has it, each integer an integer (never a double), a double's
// bits kept (-0 is not 0), null apart from an empty array or map (a nil
// slice or map is null, as the library converts them); any other type
// is refused.
func TestToValue(t *testing.T) {
	for _, c := range []struct {
		in   any
		want *pb.Value
	}{
		{nil, null()},
		{true, boolean(true)},
		{"é`x", str("é`x")},
		{int64(math.MinInt64), i64(math.MinInt64)},
		{int64(1<<53 + 1), i64(1<<53 + 1)},
		{float64(1), dbl(1)},
		{math.Copysign(0, -1), dbl(math.Copysign(0, -1))},
		{[]any{}, arr()},
		{[]any(nil), null()},
		{map[string]any(nil), null()},
		{map[string]any{}, mp(map[string]*pb.Value{})},
		{[]any{int64(1), nil, []any{"a"}, map[string]any{"k": false}},
			arr(i64(1), null(), arr(str("a")), mp(map[string]*pb.Value{"k": boolean(false)}))},
	} {
		got, err := toValue(c.in)
		if err != nil {
			t.Fatalf("%#v: %v", c.in, err)
		}
		if !proto.Equal(got, c.want) {
			t.Errorf("%#v: got %v, want %v", c.in, got, c.want)
		}
		if f, ok := c.in.(float64); ok && math.Signbit(f) != math.Signbit(got.GetDoubleValue()) {
			t.Errorf("%v: the sign was lost", f)
		}
	}
	for _, bad := range []any{1, int32(1), float32(1), []string{"a"}, map[string]string{}, time.Time{}, []any{uint64(1)}, map[string]any{"k": struct{}{}}} {
		if _, err := toValue(bad); err == nil {
			t.Errorf("%#v (%T) was converted", bad, bad)
		}
	}
}

// TestToWrites: a create is an update conditional on the document not
// existing, with no mask; a set the same without condition; an update
// holds its fields' values (a nested path's under its parent), a mask of
// the paths sorted (a name that is not an identifier in backquotes; a
// deleted field in the mask only), conditional on the update time, or
// on the document existing. Two updates of one field, a field and one
// inside it, no update, and a value no document holds are errors.
func TestToWrites(t *testing.T) {
	ref := &firestore.DocumentRef{Path: "projects/p/databases/(default)/documents/games/g", ID: "g"}
	at := time.Unix(1_700_000_000, 123456789).UTC()
	got, err := toWrites([]write{
		{ref: ref, op: opCreate, data: map[string]any{"a": int64(1)}},
		{ref: ref, op: opSet, data: map[string]any{"b": "x"}},
		{ref: ref, op: opUpdate, updated: at, ups: []firestore.Update{
			{FieldPath: firestore.FieldPath{"version"}, Value: int64(7)},
			{FieldPath: firestore.FieldPath{"gone"}, Value: firestore.Delete},
			{FieldPath: firestore.FieldPath{"auditRing", "12"}, Value: "{}"},
			{FieldPath: firestore.FieldPath{"auditRing", "3"}, Value: "[]"},
		}},
		{ref: ref, op: opUpdate, ups: []firestore.Update{{FieldPath: firestore.FieldPath{"x-y"}, Value: nil}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	doc := func(f map[string]*pb.Value) *pb.Write_Update {
		return &pb.Write_Update{Update: &pb.Document{Name: ref.Path, Fields: f}}
	}
	exists := func(b bool) *pb.Precondition {
		return &pb.Precondition{ConditionType: &pb.Precondition_Exists{Exists: b}}
	}
	want := []*pb.Write{
		{Operation: doc(map[string]*pb.Value{"a": i64(1)}), CurrentDocument: exists(false)},
		{Operation: doc(map[string]*pb.Value{"b": str("x")})},
		{Operation: doc(map[string]*pb.Value{"version": i64(7), "auditRing": mp(map[string]*pb.Value{"12": str("{}"), "3": str("[]")})}),
			UpdateMask:      &pb.DocumentMask{FieldPaths: []string{"auditRing.`12`", "auditRing.`3`", "gone", "version"}},
			CurrentDocument: &pb.Precondition{ConditionType: &pb.Precondition_UpdateTime{UpdateTime: timestamppb.New(at)}}},
		{Operation: doc(map[string]*pb.Value{"x-y": null()}), UpdateMask: &pb.DocumentMask{FieldPaths: []string{"`x-y`"}}, CurrentDocument: exists(true)},
	}
	for i := range want {
		if !proto.Equal(got[i], want[i]) {
			t.Errorf("write %d:\n got %v\nwant %v", i, got[i], want[i])
		}
	}
	for name, ups := range map[string][]firestore.Update{
		"twice":  {{FieldPath: firestore.FieldPath{"a"}, Value: "1"}, {FieldPath: firestore.FieldPath{"a"}, Value: "2"}},
		"inside": {{FieldPath: firestore.FieldPath{"a"}, Value: "1"}, {FieldPath: firestore.FieldPath{"a", "b"}, Value: "2"}},
		"none":   {},
		"dotted": {{Path: "a.b", Value: "1"}},
		"empty":  {{FieldPath: firestore.FieldPath{"a", ""}, Value: "1"}},
		"bad":    {{FieldPath: firestore.FieldPath{"a"}, Value: 1}},
	} {
		if _, err := toWrites([]write{{ref: ref, op: opUpdate, ups: ups}}); err == nil {
			t.Errorf("%s: an update of %v was built", name, ups)
		}
	}
	// Positive control for "inside": a field beside another whose name it
	// begins with is no conflict.
	if _, err := toWrites([]write{{ref: ref, op: opUpdate, ups: []firestore.Update{
		{FieldPath: firestore.FieldPath{"a"}, Value: "1"}, {FieldPath: firestore.FieldPath{"ab"}, Value: "2"}}}}); err != nil {
		t.Errorf("a and ab: %v", err)
	}
	if _, err := toWrites([]write{{ref: ref, op: opCreate, data: map[string]any{"k": []any{strings.Builder{}}}}}); err == nil {
		t.Error("a create of a value no document holds was built")
	}
}

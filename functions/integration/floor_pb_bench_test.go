package integration

import (
	"fmt"
	"slices"
	"testing"

	"cloud.google.com/go/firestore"
	pb "cloud.google.com/go/firestore/apiv1/firestorepb"
)

// The floor's writes as the protobuf messages its Commit sends, built
// before the floor is timed.

// pbWrites builds c's writes as the Commit call sends them (Firestore's
// Write messages: a create conditional on the document not existing, a
// set without condition, an update with its mask of paths, conditional
// on the document's existing, the game's on its update time, set by do
// once read), as fsstore builds them.
func (f *floorGame) pbWrites(b testing.TB, c *floorCommit) {
	doc := func(ref *firestore.DocumentRef, d map[string]any) *pb.Write {
		return &pb.Write{Operation: &pb.Write_Update{Update: &pb.Document{Name: ref.Path, Fields: pbFields(b, d)}}}
	}
	exists := func(x bool) *pb.Precondition {
		return &pb.Precondition{ConditionType: &pb.Precondition_Exists{Exists: x}}
	}
	create := func(ref *firestore.DocumentRef, d map[string]any) *pb.Write {
		w := doc(ref, d)
		w.CurrentDocument = exists(false)
		return w
	}
	update := func(ref *firestore.DocumentRef, ups []firestore.Update) *pb.Write {
		d, paths := map[string]any{}, []string{}
		for _, u := range ups {
			if len(u.FieldPath) == 2 { // auditRing.<slot>
				m, _ := d[u.FieldPath[0]].(map[string]any)
				if m == nil {
					m = map[string]any{}
					d[u.FieldPath[0]] = m
				}
				m[u.FieldPath[1]] = u.Value
				paths = append(paths, u.FieldPath[0]+".`"+u.FieldPath[1]+"`")
				continue
			}
			paths = append(paths, u.FieldPath[0])
			if u.Value != firestore.Delete {
				d[u.FieldPath[0]] = u.Value
			}
		}
		slices.Sort(paths)
		w := doc(ref, d)
		w.UpdateMask, w.CurrentDocument = &pb.DocumentMask{FieldPaths: paths}, exists(true)
		return w
	}
	if c.create != nil {
		c.pb = append(c.pb, create(f.ref, c.create), doc(c.refs[1], c.setPriv))
	} else {
		c.pb = append(c.pb, update(f.ref, c.pubUps))
		if len(c.privUps) > 0 {
			c.pb = append(c.pb, update(c.refs[1], c.privUps))
		}
	}
	if c.logDoc != nil {
		seq := c.logDoc["events"].([]any)
		last := seq[len(seq)-1].(map[string]any)["seq"].(int64)
		c.pb = append(c.pb, create(f.ref.Collection("log").Doc(fmt.Sprintf("%020d", last)), c.logDoc))
	}
	c.pb = append(c.pb, create(f.ref.Collection("applied").Doc(fmt.Sprintf("%020d", c.applied["version"].(int64))), c.applied),
		create(c.refs[2], c.rec))
}

// pbFields converts a document of store.ToDoc's values to Firestore's
// protobuf fields.
func pbFields(b testing.TB, d map[string]any) map[string]*pb.Value {
	out := make(map[string]*pb.Value, len(d))
	for k, v := range d {
		out[k] = pbValue(b, v)
	}
	return out
}

func pbValue(b testing.TB, v any) *pb.Value {
	switch x := v.(type) {
	case nil:
		return &pb.Value{ValueType: &pb.Value_NullValue{}}
	case bool:
		return &pb.Value{ValueType: &pb.Value_BooleanValue{BooleanValue: x}}
	case string:
		return &pb.Value{ValueType: &pb.Value_StringValue{StringValue: x}}
	case int64:
		return &pb.Value{ValueType: &pb.Value_IntegerValue{IntegerValue: x}}
	case float64:
		return &pb.Value{ValueType: &pb.Value_DoubleValue{DoubleValue: x}}
	case []any:
		vs := make([]*pb.Value, len(x))
		for i := range x {
			vs[i] = pbValue(b, x[i])
		}
		return &pb.Value{ValueType: &pb.Value_ArrayValue{ArrayValue: &pb.ArrayValue{Values: vs}}}
	case map[string]any:
		return &pb.Value{ValueType: &pb.Value_MapValue{MapValue: &pb.MapValue{Fields: pbFields(b, x)}}}
	}
	b.Fatalf("floor: a %T in a document", v)
	return nil
}

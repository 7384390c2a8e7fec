package flurrytest

import (
	"reflect"
	"testing"

	"github.com/batchq/batchq/swf"
)

func TestInjectValidate(t *testing.T) {
	for _, s := range []Synthetic{{Jobs: 0, Size: 1}, {Jobs: 1, Size: 0}, {Jobs: 1, Size: 1, Start: -1}, {Jobs: 1, Size: 1, RunMin: 5, RunMax: 4}} {
		if _, _, err := Inject(nil, s, nil); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
	out, ids, err := Inject([]swf.Job{{ID: 7, Submit: 50}}, Synthetic{Jobs: 3, Size: 2, Start: 0, Duration: 100, User: 9}, nil)
	if err != nil || len(out) != 4 || !reflect.DeepEqual(ids, []int64{8, 9, 10}) || out[0].Submit != 0 || out[1].ID != 7 || out[3].Submit != 100 {
		t.Errorf("%+v %v %v", out, ids, err)
	}
}

package rangeset

import "testing"

// A job without a user (Key.User −1, SWF's missing value) is no kind of
// job: the history keeps none of them and the load functions learn from
// none, rather than pooling every user-less job as one user's; user 0 is
// a user (checked: fails without the User < 0 checks in History.Add and
// BuildLoadFuncs, user −1 with 40 jobs of history and a function).
func TestNoUserNoKind(t *testing.T) {
	for _, u := range []int64{-1, 0} {
		k := Key{User: u, Size: 4, Queue: 1, Group: -1}
		var ss []LoadSample
		h := new(History)
		for i := range 40 {
			s := LoadSample{Key: k, Runtime: float64(100 + 10*(i/2)), Load: 0.01 + 0.05*float64(i/2)}
			ss = append(ss, s)
			if err := h.Add(s); err != nil {
				t.Fatal(err)
			}
		}
		fs, err := BuildLoadFuncs(ss, LoadFuncConfig{})
		if err != nil {
			t.Fatal(err)
		}
		_, ok, err := (&Predictor{History: h}).Predict(k, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		if want := u >= 0; (h.Len(k) > 0) != want || (len(fs) > 0) != want || ok != want {
			t.Errorf("user %d: %d jobs of history, %d load functions, predicted %v; want them %v", u, h.Len(k), len(fs), ok, want)
		}
	}
}

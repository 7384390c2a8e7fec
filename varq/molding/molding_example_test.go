package molding_test

import (
	"fmt"

	"github.com/batchq/batchq/estmodel/rangeset"
	"github.com/batchq/batchq/varq/molding"
)

// Molding compares response-time range sets, not points: 64 processors
// run faster but wait longer than 16. Scores are 1 − the coverage-weighted
// mean midpoint of the response ranges over the largest response (6000 s):
// 1 − 4660/6000 and 1 − 5050/6000.
func ExampleChooseSize() {
	cands := []molding.Candidate{
		{Size: 16, Wait: 600, Exec: rangeset.Set{{Lo: 3000, Hi: 3600, P: 0.7}, {Lo: 5000, Hi: 5400, P: 0.3}}},
		{Size: 64, Wait: 4000, Exec: rangeset.Set{{Lo: 900, Hi: 1200, P: 1}}},
	}
	best, scores, err := molding.ChooseSize(cands, 64)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("scores %.3f %.3f → %d processors\n", scores[0], scores[1], cands[best].Size)
	// Output: scores 0.223 0.158 → 16 processors
}

package conformal_test

import (
	"fmt"

	"github.com/batchq/batchq/qbets/conformal"
)

// A calibrator learns from each outcome how far waits fall from the point
// forecasts, and answers intervals at 50, 80 and 90%.
func Example() {
	c, _ := conformal.NewCalibrator(conformal.Config{Split: true})
	// A point predictor that is right within a factor 2.8 on these jobs.
	for i := range 1000 {
		ratio := 1 + float64(i%10)/5 // 1, 1.2, …, 2.8
		if i%2 == 0 {
			ratio = 1 / ratio
		}
		c.Update(0, 3600, 3600*ratio)
	}
	for i, l := range c.Levels() {
		lo, hi := c.Interval(0, 3600, i)
		fmt.Printf("%.0f%%: [%.0f s, %.0f s]\n", 100*l, lo, hi)
	}
	// Output:
	// 50%: [2000 s, 7200 s]
	// 80%: [1385 s, 10080 s]
	// 90%: [1385 s, 10080 s]
}

package figures

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Activity is a log's weekly job and process arrivals, in total and for some
// users, with the flurries a detector found (Tsafrir's thesis Figures 6.8
// and 6.9). Week i covers [i, i+1) weeks after the log's start.
type Activity struct {
	Title string
	Jobs  []float64 // jobs submitted in each week, all users
	Procs []float64 // processes (Σ job sizes) submitted in each week
	Users []UserWeeks
	// Flurries are drawn as shaded week ranges in the colour of their user
	// when the user is in Users, grey otherwise.
	Flurries []Flurry
}

// UserWeeks is one user's weekly arrivals (same length as Activity.Jobs).
type UserWeeks struct {
	User        string
	Jobs, Procs []float64
}

// Flurry is a detected flurry: a user's burst over weeks From..To
// (inclusive), of jobs or of processes.
type Flurry struct {
	User     string
	From, To int
	// Procs is true for a process flurry (shaded in the processes panel),
	// false for a job flurry.
	Procs bool
}

// Validate reports mismatched lengths and flurries outside the weeks.
func (a *Activity) Validate() error {
	n := len(a.Jobs)
	if n == 0 {
		return fmt.Errorf("figures: Activity %q: %w (no weeks)", a.Title, errEmpty)
	}
	if len(a.Procs) != n {
		return fmt.Errorf("figures: Activity %q: %d weeks of processes for %d weeks of jobs", a.Title, len(a.Procs), n)
	}
	for i, u := range a.Users {
		if len(u.Jobs) != n || len(u.Procs) != n {
			return fmt.Errorf("figures: Activity %q: Users[%d] (%s) has %d/%d weeks, want %d", a.Title, i, u.User, len(u.Jobs), len(u.Procs), n)
		}
	}
	for i, f := range a.Flurries {
		if f.From < 0 || f.To < f.From || f.To >= n {
			return fmt.Errorf("figures: Activity %q: Flurries[%d] (%s) weeks %d..%d outside 0..%d", a.Title, i, f.User, f.From, f.To, n-1)
		}
	}
	return nil
}

// Activities draws jobs per week (top) and processes per week (bottom):
// the total in black, each listed user in colour, flurries shaded, and
// writes dir/name.png and .svg.
func Activities(dir, name string, a Activity) ([]string, error) {
	if err := a.Validate(); err != nil {
		return nil, err
	}
	userIndex := func(user string) int {
		for i, u := range a.Users {
			if u.User == user {
				return i
			}
		}
		return -1
	}
	panel := func(total []float64, per func(UserWeeks) []float64, procs bool, ylabel string) (*plot.Plot, error) {
		p := newPlot("", "week of the log", ylabel)
		top := 0.0
		for _, v := range total {
			top = max(top, v)
		}
		p.Y.Min, p.Y.Max = 0, 1.05*max(top, 1)
		p.Y.Tick.Marker = plainTicks{}
		var others *plotter.Polygon // a flurry of a user without a line
		for _, f := range a.Flurries {
			if f.Procs != procs {
				continue
			}
			var c color.Color = light
			i := userIndex(f.User)
			if i >= 0 {
				c = tint(colorOf(i))
			}
			x0, x1 := float64(f.From), float64(f.To+1)
			poly, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: 0}, {X: x1, Y: 0}, {X: x1, Y: p.Y.Max}, {X: x0, Y: p.Y.Max}})
			if err != nil {
				return nil, err
			}
			poly.Color, poly.LineStyle.Width = c, 0
			p.Add(poly)
			if i < 0 {
				others = poly
			}
		}
		add := func(ys []float64, c color.Color, label string) error {
			// One point per week start plus the end of the last week, so
			// that the last step has its width.
			xy := make(plotter.XYs, len(ys)+1)
			for i, y := range ys {
				xy[i] = plotter.XY{X: float64(i), Y: y}
			}
			xy[len(ys)] = plotter.XY{X: float64(len(ys)), Y: ys[len(ys)-1]}
			l, err := plotter.NewLine(xy)
			if err != nil {
				return err
			}
			l.StepStyle = plotter.PostStep
			l.LineStyle.Width, l.LineStyle.Color = vg.Points(1.2), c
			p.Add(l)
			p.Legend.Add(label, l)
			return nil
		}
		if err := add(total, black, "all users"); err != nil {
			return nil, err
		}
		for i, u := range a.Users {
			if err := add(per(u), colorOf(i), "user "+u.User); err != nil {
				return nil, err
			}
		}
		if others != nil {
			// Listed users' flurries are shaded in their colour; say what
			// the grey ones are.
			p.Legend.Add("flurry of another user", others)
		}
		p.Legend.Top = true
		return p, nil
	}
	jp, err := panel(a.Jobs, func(u UserWeeks) []float64 { return u.Jobs }, false, "jobs per week (shaded: job flurries)")
	if err != nil {
		return nil, err
	}
	pp, err := panel(a.Procs, func(u UserWeeks) []float64 { return u.Procs }, true, "processes per week (shaded: process flurries)")
	if err != nil {
		return nil, err
	}
	return render(dir, name, 9*vg.Inch, 6.5*vg.Inch, func(dc draw.Canvas) {
		if a.Title != "" {
			dc = titled(dc, a.Title)
		}
		grid(dc, [][]*plot.Plot{{jp}, {pp}})
	})
}

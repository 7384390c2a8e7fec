// Package figures draws the figures of the papers batchq reproduces, as PNG
// and SVG files, from plain data (slices of numbers, no batchq types), so
// that every example can call it and no library package depends on the
// plotting library:
//
//   - Waits: job waits and wait bounds over time (Nurmi's thesis Figure 4.1:
//     QBETS with and without history trimming);
//   - Schedulers: mean wait and bounded slowdown of scheduler variants per
//     log (Tsafrir's thesis Table 4.3 as bars, thesis values marked);
//   - Trajectory: a VARQ probability trajectory with the chosen submission
//     time (Nurmi's thesis Figure 5.4);
//   - Activity: weekly jobs and processes, per user, with flurries marked
//     (Tsafrir's thesis Figures 6.8 and 6.9).
//
// Each function writes dir/name.png and dir/name.svg and returns their paths.
// Package fromlib converts batchq results (sanitize activity and flurries,
// VARQ trajectories and plans, sched summaries) into these inputs.
//
// Which example draws what: examples/replay -out (all four), examples/tsafrir
// -plot (Schedulers with the thesis values); for the others' -plot flags:
// examples/qbets → Waits (per-job bounds of a queue, full history and
// trimmed), examples/varq and examples/coalloc → Trajectories
// (fromlib.Trajectory), examples/flurries → Activities (fromlib.Activity).
// Bad input (mismatched slice lengths, nothing to draw) is an error naming
// the field. Nothing here is safe for concurrent writes to the same files.
package figures

import (
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// dpi is the PNG resolution: sharp on a screen, small on disk.
const dpi = 110

// palette is colour-blind-safe (Okabe–Ito) and distinct in print.
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{204, 121, 167, 255}, // reddish purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{240, 228, 66, 255},  // yellow
}

// colorOf returns the i-th palette colour, cycling.
func colorOf(i int) color.Color { return palette[i%len(palette)] }

var (
	black = color.Black
	grey  = color.Gray{Y: 150}
	light = color.RGBA{230, 230, 230, 255}
)

// render draws fn on a w×h canvas and writes dir/name.png and dir/name.svg.
func render(dir, name string, w, h vg.Length, fn func(dc draw.Canvas)) ([]string, error) {
	if name == "" || filepath.Base(name) != name {
		return nil, fmt.Errorf("figures: bad file name %q (no directories, not empty)", name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	canvases := []struct {
		ext string
		c   vg.CanvasWriterTo
	}{
		{"png", vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))}},
		{"svg", vgsvg.New(w, h)},
	}
	var paths []string
	for _, cv := range canvases {
		// The PNG canvas starts transparent; viewers show that as black or
		// checkered, so paint it white first.
		dc := draw.New(cv.c)
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		fn(dc)
		p := filepath.Join(dir, name+"."+cv.ext)
		if err := write(p, cv.c); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

func write(path string, c vg.CanvasWriterTo) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if e := f.Close(); err == nil {
			err = e
		}
	}()
	_, err = c.WriteTo(f)
	return err
}

// grid draws plots in rows×cols tiles on dc, each aligned with its
// neighbours; nil entries are left empty.
func grid(dc draw.Canvas, plots [][]*plot.Plot) {
	rows, cols := len(plots), len(plots[0])
	t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	cs := plot.Align(plots, t, dc)
	for i := range plots {
		for j, p := range plots[i] {
			if p != nil {
				p.Draw(cs[i][j])
			}
		}
	}
}

// newPlot returns a plot with a title and axis labels.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	return p
}

var errEmpty = errors.New("nothing to draw")

// tint is c mixed with 75% white, for shaded areas behind lines.
func tint(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 { return uint8((v>>8)/4 + 191) }
	return color.RGBA{mix(r), mix(g), mix(b), 255}
}

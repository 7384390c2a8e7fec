package main

import (
	"cmp"
	"fmt"
	"image/color"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/batchq/batchq/internal/thesislogs"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Okabe–Ito colours, as internal/figures.
var lineColors = []color.Color{
	color.RGBA{0, 0, 0, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 114, 178, 255}, color.RGBA{0, 158, 115, 255},
}

// plotFig43 draws Figure 4.3: mean wait and bounded slowdown against the
// offered load, one column per log, one line per policy; writes
// dir/fig43.png and dir/fig43.svg.
func plotFig43(dir string, lines []Line) ([]string, error) {
	loads := loadsOf(lines)
	rows := [][]*plot.Plot{make([]*plot.Plot, len(thesislogs.Logs)), make([]*plot.Plot, len(thesislogs.Logs))}
	for j, l := range thesislogs.Logs {
		for r, m := range []struct {
			y string
			f func(Metrics) float64
		}{{"mean wait (min)", func(m Metrics) float64 { return m.MeanWait / 60 }}, {"mean bounded slowdown", func(m Metrics) float64 { return m.MeanBSLD }}} {
			p := plot.New()
			p.Title.Text = l.Name
			p.X.Label.Text = "offered load"
			p.Y.Label.Text = m.y
			p.Legend.Top, p.Legend.Left = true, true
			for i, pol := range fig43Policies {
				var xy plotter.XYs
				for _, ld := range loads {
					if s, ok := find(lines, l.Name, pol, ld); ok && ld > 0 {
						xy = append(xy, plotter.XY{X: ld, Y: m.f(s)})
					}
				}
				if len(xy) == 0 {
					return nil, fmt.Errorf("fig43: no runs of %s on %s", pol, l.Name)
				}
				ln, pts, err := addSeries(p, xy, i)
				if err != nil {
					return nil, err
				}
				if j == 0 {
					p.Legend.Add(pol, ln, pts)
				}
			}
			rows[r][j] = p
		}
	}
	return writeFigure(dir, "fig43", rows, 32*vg.Centimeter, 15*vg.Centimeter)
}

// plotFig119 draws the numbers of the thesis's Figure 1.19: the mean
// degradation of the configurations of each window size against the size,
// over all configurations and per window type; writes dir/fig119.png and
// dir/fig119.svg.
func plotFig119(dir string, lines []Line) ([]string, error) {
	cfgs, _, _, _, err := rankConfigs(lines)
	if err != nil {
		return nil, err
	}
	p := plot.New()
	p.Title.Text = "Mean degradation against window size (EASY++, four logs)"
	p.X.Label.Text = "window size (jobs)"
	p.Y.Label.Text = "mean degradation (%)"
	p.Legend.Top, p.Legend.Left = true, true
	for i, t := range []string{"", "all", "immediate", "extended"} {
		sum, n := map[int]float64{}, map[int]int{}
		for _, c := range cfgs {
			if t == "" || c.Type == t {
				sum[c.Window] += c.degr
				n[c.Window]++
			}
		}
		var xy plotter.XYs
		for _, size := range slices.Sorted(maps.Keys(n)) {
			xy = append(xy, plotter.XY{X: float64(size), Y: sum[size] / float64(n[size])})
		}
		ln, pts, err := addSeries(p, xy, i)
		if err != nil {
			return nil, err
		}
		p.Legend.Add(cmp.Or(map[string]string{"all": "type all", "immediate": "type immediate", "extended": "type extended"}[t], "all configurations"), ln, pts)
	}
	return writeFigure(dir, "fig119", [][]*plot.Plot{{p}}, 16*vg.Centimeter, 11*vg.Centimeter)
}

// writeFigure draws rows of plots on a white page of w × h and writes it
// as dir/name.png and dir/name.svg.
func writeFigure(dir, name string, rows [][]*plot.Plot, w, h vg.Length) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for _, ext := range []string{"png", "svg"} {
		var c vg.CanvasWriterTo
		if ext == "png" {
			c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(100))}
		} else {
			c = vgsvg.New(w, h)
		}
		dc := draw.New(c)
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		t := draw.Tiles{Rows: len(rows), Cols: len(rows[0]), PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
			PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
		cs := plot.Align(rows, t, dc)
		for r := range rows {
			for j, p := range rows[r] {
				p.Draw(cs[r][j])
			}
		}
		path := filepath.Join(dir, name+"."+ext)
		f, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		if _, err := c.WriteTo(f); err != nil {
			f.Close()
			return nil, err
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
		files = append(files, path)
	}
	return files, nil
}

// addSeries adds xy to p as the i-th series: line and points in the i-th
// colour and glyph.
func addSeries(p *plot.Plot, xy plotter.XYs, i int) (*plotter.Line, *plotter.Scatter, error) {
	ln, pts, err := plotter.NewLinePoints(xy)
	if err != nil {
		return nil, nil, err
	}
	ln.Color, pts.Color = lineColors[i], lineColors[i]
	ln.Width = vg.Points(1.2)
	pts.Shape = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}}[i]
	p.Add(ln, pts)
	return ln, pts, nil
}

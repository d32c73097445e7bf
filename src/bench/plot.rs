//! A minimal SVG line plot: curves over many sizes, where a table says less than a picture.

use std::fmt::Write as _;

/// One named curve of (x, y) points.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

const COLORS: [&str; 4] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];

/// An SVG document plotting `series` with linear axes from 0 to the largest x and y (and
/// at least 1 on y, so fractions of copy bandwidth read against a full-height line).
pub fn line_plot_svg(title: &str, x_label: &str, y_label: &str, series: &[Series]) -> String {
    let (w, h, left, right, top, bottom) = (1100.0, 520.0, 70.0, 20.0, 40.0, 60.0);
    let all = series.iter().flat_map(|s| s.points.iter());
    let x_max = all.clone().map(|p| p.0).fold(1.0f64, f64::max);
    let y_max = all.map(|p| p.1).fold(1.0f64, f64::max) * 1.05;
    let px = |x: f64| left + (w - left - right) * x / x_max;
    let py = |y: f64| h - bottom - (h - top - bottom) * y / y_max;
    let mut svg = String::new();
    let _ = writeln!(svg, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#);
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(svg, r#"<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>"#, w / 2.0, escape(title));
    // Axes, ticks and grid.
    let _ = writeln!(svg, r#"<line x1="{left}" y1="{}" x2="{}" y2="{}" stroke="black"/>"#, h - bottom, w - right, h - bottom);
    let _ = writeln!(svg, r#"<line x1="{left}" y1="{top}" x2="{left}" y2="{}" stroke="black"/>"#, h - bottom);
    for i in 0..=10 {
        let y = y_max * i as f64 / 10.0;
        let _ = writeln!(svg, r#"<line x1="{left}" y1="{0:.1}" x2="{1}" y2="{0:.1}" stroke="lightgray"/><text x="{2}" y="{3:.1}" text-anchor="end">{y:.2}</text>"#, py(y), w - right, left - 6.0, py(y) + 4.0);
    }
    for i in 0..=8 {
        let x = x_max * i as f64 / 8.0;
        let _ = writeln!(svg, r#"<text x="{:.1}" y="{}" text-anchor="middle">{x:.0}</text>"#, px(x), h - bottom + 18.0);
    }
    let _ = writeln!(svg, r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#, (left + w - right) / 2.0, h - 15.0, escape(x_label));
    let _ = writeln!(svg, r#"<text x="16" y="{}" text-anchor="middle" transform="rotate(-90 16 {0})">{}</text>"#, (top + h - bottom) / 2.0, escape(y_label));
    for (i, s) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let mut path = String::new();
        for (j, (x, y)) in s.points.iter().enumerate() {
            let _ = write!(path, "{}{:.1},{:.1} ", if j == 0 { "M" } else { "L" }, px(*x), py(*y));
        }
        let _ = writeln!(svg, r#"<path d="{path}" fill="none" stroke="{color}" stroke-width="0.8"/>"#);
        let ly = top + 16.0 * i as f64 + 10.0;
        let _ = writeln!(svg, r#"<line x1="{0}" y1="{ly}" x2="{1}" y2="{ly}" stroke="{color}" stroke-width="3"/><text x="{2}" y="{3}">{4}</text>"#, w - right - 200.0, w - right - 180.0, w - right - 175.0, ly + 4.0, escape(&s.name));
    }
    svg.push_str("</svg>\n");
    svg
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

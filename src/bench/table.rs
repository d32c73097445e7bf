//! Result tables: aligned text on stdout, CSV on request.

use std::fmt::Write as _;
use std::path::Path;

use crate::error::{Error, Result};

/// One benchmark table: a title, columns, rows and summary lines.
#[derive(Debug, Clone, Default)]
pub struct Table {
    pub title: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub summary: Vec<String>,
    /// Rows too many to print (one per transform size): `render` prints the title and the
    /// summary only; the CSV has them all.
    pub csv_only: bool,
    /// An SVG plot of the rows, written beside the CSV.
    pub plot: Option<String>,
}

impl Table {
    pub fn new(title: impl Into<String>, headers: &[&str]) -> Self {
        Table { title: title.into(), headers: headers.iter().map(|h| h.to_string()).collect(), ..Default::default() }
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Aligned text: numbers right-aligned, text left-aligned, a rule under the header.
    pub fn render(&self) -> String {
        let ncol = self.headers.len();
        let mut width: Vec<usize> = self.headers.iter().map(|h| h.len()).collect();
        for r in &self.rows {
            for (i, c) in r.iter().enumerate().take(ncol) {
                width[i] = width[i].max(c.len());
            }
        }
        let numeric = |s: &str| s.trim_end_matches(['x', '%']).parse::<f64>().is_ok();
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.title);
        let fmt_row = |cells: &[String], out: &mut String| {
            let line: Vec<String> = cells
                .iter()
                .enumerate()
                .map(|(i, c)| if numeric(c) { format!("{c:>w$}", w = width[i]) } else { format!("{c:<w$}", w = width[i]) })
                .collect();
            let _ = writeln!(out, "  {}", line.join("  ").trim_end());
        };
        if self.csv_only {
            let _ = writeln!(out, "  ({} rows: see the CSV)", self.rows.len());
            for s in &self.summary {
                let _ = writeln!(out, "  {s}");
            }
            return out;
        }
        fmt_row(&self.headers, &mut out);
        let _ = writeln!(out, "  {}", width.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("  "));
        for r in &self.rows {
            fmt_row(r, &mut out);
        }
        for s in &self.summary {
            let _ = writeln!(out, "  {s}");
        }
        out
    }

    /// Markdown, as docs/BENCHMARKS.md holds it.
    pub fn render_markdown(&self) -> String {
        if self.csv_only {
            return String::new();
        }
        let mut out = format!("| {} |\n|{}\n", self.headers.join(" | "), " --- |".repeat(self.headers.len()));
        for r in &self.rows {
            let _ = writeln!(out, "| {} |", r.join(" | "));
        }
        out
    }

    /// Writes the table to a CSV file (one header line, then the rows).
    pub fn write_csv(&self, path: &Path) -> Result<()> {
        let esc = |s: &str| if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_owned() };
        let line = |cells: &[String]| cells.iter().map(|c| esc(c)).collect::<Vec<_>>().join(",");
        let mut text = line(&self.headers);
        text.push('\n');
        for r in &self.rows {
            text.push_str(&line(r));
            text.push('\n');
        }
        std::fs::write(path, text).map_err(|e| Error::io(format!("writing CSV file {}", path.display()), e))
    }
}

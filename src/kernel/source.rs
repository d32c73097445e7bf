//! A generated program: its name, its entry points and its text, written with a small
//! line builder so that generated kernels come out indented and commented.

use std::fmt::Write as _;

use super::prelude::PRELUDE;

/// Text of one generated program (one or more kernels) in the coalesce dialect.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KernelSource {
    /// Names the program after what it does, e.g. `copy_w16_b256_u4`; used for dumps and errors.
    pub name: String,
    /// The kernels the program defines, looked up by name after compiling.
    pub entry_points: Vec<String>,
    /// Body without the prelude.
    pub body: String,
}

impl KernelSource {
    /// The whole text handed to the compiler: prelude, then body.
    pub fn full_text(&self) -> String {
        format!("{PRELUDE}\n{}", self.body)
    }
}

/// Writes lines of C with indentation. `open` and `close` bracket a block.
#[derive(Default)]
pub struct SourceWriter {
    text: String,
    depth: usize,
}

impl SourceWriter {
    pub fn new() -> Self {
        Self::default()
    }

    /// One line at the current depth.
    pub fn line(&mut self, line: impl AsRef<str>) -> &mut Self {
        let line = line.as_ref();
        if line.is_empty() {
            self.text.push('\n');
        } else {
            let _ = writeln!(self.text, "{:indent$}{line}", "", indent = 4 * self.depth);
        }
        self
    }

    /// A line that opens a block (`... {`), indenting what follows.
    pub fn open(&mut self, head: impl AsRef<str>) -> &mut Self {
        self.line(format!("{} {{", head.as_ref()));
        self.depth += 1;
        self
    }

    /// A bare `{` that opens a scope of its own, indenting what follows.
    pub fn open_scope(&mut self) -> &mut Self {
        self.line("{");
        self.depth += 1;
        self
    }

    /// Closes the innermost block.
    pub fn close(&mut self) -> &mut Self {
        self.depth = self.depth.saturating_sub(1);
        self.line("}")
    }

    /// A `/* ... */` comment, one line per entry.
    pub fn comment(&mut self, lines: &[&str]) -> &mut Self {
        match lines {
            [one] => self.line(format!("/* {one} */")),
            _ => {
                self.line("/*");
                for l in lines {
                    self.line(format!(" * {l}"));
                }
                self.line(" */")
            }
        }
    }

    pub fn finish(self) -> String {
        self.text
    }
}

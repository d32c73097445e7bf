//! The `coalesce` command: see `coalesce --help`.

mod cli;

fn main() {
    if let Err(e) = cli::run() {
        eprintln!("coalesce: {e}");
        std::process::exit(1);
    }
}

//! Prints the recipe the planner designs for each length given on the command line (no
//! device needed): `cargo run --release --example fft_recipes -- 15 360 4093`; lengths past
//! 4096 as the rows of N-d plans (up to 16384, even real rows 32768). A length may
//! carry prefixes for the kind and precision: `r2c:360`, `c2r:360`, `f64:360`, `f64:r2c:360`
//! (C2C f32 without). A shape such as `64x64x64` prints the passes of the C2C transform over
//! all its axes (`32x1024x1024/1,2`: over axes 1 and 2); with prefixes too (`r2c:64x64x64`,
//! `f64:c2r:128x128`).
//! With `--source DIR` first, also writes each kernel's full source to DIR/<kernel>.cu, as
//! NVRTC would compile it (e.g. for `nvcc -cubin -Xptxas -v` on a GPU machine).
//! With `--variants` first, also prints each 1D recipe's variants (one tuning choice away, as
//! `bench fft --suite variants` times them): name and kernel; after a path (`83@rader`), the
//! variants of the recipe it reaches.
//! `c2r:3380@mirror pairs / threads /2` prints the recipe a path of variants reaches from the
//! heuristic's pick (as `bench fft --suite variants --variants` names it), e.g. to compare its
//! registers with scripts/sass.py before timing it; `3380@` the heuristic's pick, without the
//! wisdom.

use coalesce::fft::{BankModel, DeviceLimits, FftKind, FftNdProblem, FftNdRecipe, FftPlan, FftProblem, FftRecipe, Precision};

/// The 1D problem of an argument such as `f64:r2c:360`, or None where it is not one.
fn problem_of(arg: &str) -> Option<FftProblem> {
    let (kind, precision, len) = prefixes(arg)?;
    Some(FftProblem { kind, ..FftProblem::c2c(len.parse().ok()?, 1 << 16) }.precision(precision))
}

/// The multi-dimensional problem of an argument such as `r2c:64x64x64` (every axis) or
/// `32x1024x1024/1,2` (those axes).
fn nd_problem_of(arg: &str) -> Option<FftNdProblem> {
    let (kind, precision, rest) = prefixes(arg)?;
    let (dims, axes) = rest.split_once('/').unwrap_or((rest, ""));
    let shape: Vec<usize> = dims.split('x').map(|d| d.parse().ok()).collect::<Option<_>>()?;
    let axes: Vec<usize> = match axes {
        "" => (0..shape.len()).collect(),
        list => list.split(',').map(|a| a.parse().ok()).collect::<Option<_>>()?,
    };
    (shape.len() > 1).then(|| FftNdProblem { kind, ..FftNdProblem::c2c(&shape, &axes) }.precision(precision))
}

/// An argument's kind and precision prefixes, and what follows them.
fn prefixes(arg: &str) -> Option<(FftKind, Precision, &str)> {
    let (mut kind, mut precision) = (FftKind::C2C, Precision::F32);
    let mut parts = arg.split(':').peekable();
    while let Some(part) = parts.next() {
        match part {
            "r2c" => kind = FftKind::R2C,
            "c2r" => kind = FftKind::C2R,
            "c2c" => kind = FftKind::C2C,
            "f64" => precision = Precision::F64,
            rest if parts.peek().is_none() => return Some((kind, precision, rest)),
            _ => return None,
        }
    }
    None
}

fn main() {
    let limits = DeviceLimits::H200;
    let mut args = std::env::args().skip(1).peekable();
    let with_variants = args.peek().map(String::as_str) == Some("--variants");
    if with_variants {
        args.next();
    }
    let source_dir = if args.peek().map(String::as_str) == Some("--source") {
        args.next();
        let dir = std::path::PathBuf::from(args.next().expect("--source needs a folder"));
        std::fs::create_dir_all(&dir).expect("cannot create the --source folder");
        Some(dir)
    } else {
        None
    };
    let show = |r: &FftRecipe| {
        let by = |model| r.shared_wavefronts(model);
        println!("{} | shared wavefronts {} (whole warp), {} (lane groups)", r.describe(), by(BankModel::WholeWarp), by(BankModel::LaneGroups));
        if let Some(dir) = &source_dir {
            let source = FftPlan::source(r);
            std::fs::write(dir.join(format!("{}.cu", source.name)), source.full_text()).expect("cannot write the source");
        }
    };
    // A 1D recipe, with its variants where asked for.
    let show_row = |r: &FftRecipe| {
        show(r);
        if with_variants {
            r.variants(limits).iter().for_each(|(what, v)| println!("  variant {what}: {}", v.kernel_name()));
        }
    };
    for arg in args {
        if let Some(problem) = nd_problem_of(&arg) {
            match FftNdRecipe::design(problem, limits) {
                Ok(r) => {
                    println!("{arg}: {} passes", r.passes.len());
                    r.passes.iter().for_each(|p| show(&p.recipe));
                    if let Some(s) = &r.separation {
                        println!("after pass {}: {} {:?} -> {:?}, {:?}", s.after, s.pairs.kernel_name(), s.from, s.to, s.pairs);
                        if let Some(dir) = &source_dir {
                            let source = s.pairs.source();
                            std::fs::write(dir.join(format!("{}.cu", source.name)), source.full_text()).expect("cannot write the source");
                        }
                    }
                }
                Err(e) => println!("{arg}: {e}"),
            }
            continue;
        }
        let (spec, path) = arg.split_once('@').map_or((arg.as_str(), None), |(s, p)| (s, Some(p)));
        if let (Some(problem), Some(path)) = (problem_of(spec), path) {
            // An empty path: the heuristic's pick itself, without the wisdom.
            let reached = |r: FftRecipe| if path.is_empty() { Some(r) } else { r.variant_path(limits, path) };
            match FftRecipe::design_row_by_heuristic(problem, limits).map(reached) {
                Ok(Some(r)) => show_row(&r),
                Ok(None) => println!("{arg}: no variant path '{path}' from the heuristic's pick"),
                Err(e) => println!("{arg}: {e}"),
            }
            continue;
        }
        match problem_of(&arg) {
            Some(problem) => match FftRecipe::design_row(problem, limits) {
                Ok(r) => show_row(&r),
                Err(e) => println!("{arg}: {e}"),
            },
            None => eprintln!("not a length or shape: {arg}"),
        }
    }
}

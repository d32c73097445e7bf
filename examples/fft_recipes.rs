//! Prints the recipe the planner designs for each length given on the command line (no
//! device needed): `cargo run --release --example fft_recipes -- 15 360 4093`. A length may
//! carry prefixes for the kind and precision: `r2c:360`, `c2r:360`, `f64:360`, `f64:r2c:360`
//! (C2C f32 without). A shape such as `64x64x64` prints the passes of the C2C transform over
//! all its axes.
//! With `--source DIR` first, also writes each kernel's full source to DIR/<kernel>.cu, as
//! NVRTC would compile it (e.g. for `nvcc -cubin -Xptxas -v` on a GPU machine).

use coalesce::fft::{DeviceLimits, FftNdProblem, FftNdRecipe, FftPlan, FftProblem, FftRecipe};

/// The 1D problem of an argument such as `f64:r2c:360`, or None where it is not one.
fn problem_of(arg: &str) -> Option<FftProblem> {
    let (mut kind, mut f64): (fn(usize, usize) -> FftProblem, bool) = (FftProblem::c2c, false);
    let mut parts = arg.split(':').peekable();
    while let Some(part) = parts.next() {
        match part {
            "r2c" => kind = FftProblem::r2c,
            "c2r" => kind = FftProblem::c2r,
            "c2c" => kind = FftProblem::c2c,
            "f64" => f64 = true,
            len if parts.peek().is_none() => {
                let problem = kind(len.parse().ok()?, 1 << 16);
                return Some(if f64 { problem.f64() } else { problem });
            }
            _ => return None,
        }
    }
    None
}

fn main() {
    let limits = DeviceLimits::H200;
    let mut args = std::env::args().skip(1).peekable();
    let source_dir = if args.peek().map(String::as_str) == Some("--source") {
        args.next();
        let dir = std::path::PathBuf::from(args.next().expect("--source needs a folder"));
        std::fs::create_dir_all(&dir).expect("cannot create the --source folder");
        Some(dir)
    } else {
        None
    };
    let show = |r: &FftRecipe| {
        println!("{} | shared wavefronts {}", r.describe(), r.shared_wavefronts());
        if let Some(dir) = &source_dir {
            let source = FftPlan::source(r);
            std::fs::write(dir.join(format!("{}.cu", source.name)), source.full_text()).expect("cannot write the source");
        }
    };
    for arg in args {
        if let Some(problem) = arg.contains(':').then(|| problem_of(&arg)).flatten() {
            match FftRecipe::design(problem, limits) {
                Ok(r) => show(&r),
                Err(e) => println!("{arg}: {e}"),
            }
            continue;
        }
        let shape: Option<Vec<usize>> = arg.split('x').map(|d| d.parse().ok()).collect();
        match shape {
            Some(shape) if shape.len() > 1 => {
                let axes: Vec<usize> = (0..shape.len()).collect();
                match FftNdRecipe::design(FftNdProblem::c2c(&shape, &axes), limits) {
                    Ok(r) => {
                        println!("{arg}: {} passes", r.passes.len());
                        r.passes.iter().for_each(|p| show(&p.recipe));
                    }
                    Err(e) => println!("{arg}: {e}"),
                }
            }
            Some(shape) => match FftRecipe::design(FftProblem::c2c(shape[0], 1 << 16), limits) {
                Ok(r) => show(&r),
                Err(e) => println!("{arg}: {e}"),
            },
            None => eprintln!("not a length or shape: {arg}"),
        }
    }
}

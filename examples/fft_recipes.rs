//! Prints the recipe the planner designs for each length given on the command line (no
//! device needed): `cargo run --release --example fft_recipes -- 15 360 4093`.

use coalesce::fft::{DeviceLimits, FftProblem, FftRecipe};

fn main() {
    // An H100/H200: 227 KiB of shared memory per block once opted in, 1024 threads.
    let limits = DeviceLimits { shared_bytes: 232_448, max_threads: 1024 };
    for arg in std::env::args().skip(1) {
        let Ok(n) = arg.parse::<usize>() else {
            eprintln!("not a length: {arg}");
            continue;
        };
        match FftRecipe::design(FftProblem::c2c(n, 1 << 16), limits) {
            Ok(r) => println!("{} | shared wavefronts {}", r.describe(), r.shared_wavefronts()),
            Err(e) => println!("{n}: {e}"),
        }
    }
}

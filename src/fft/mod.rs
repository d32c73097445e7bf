//! Batched one-dimensional FFTs: complex to complex, real to half spectrum and back, in f32
//! and f64, every length from 1 to 4096 in one kernel launch (one read and one write of each
//! element in global memory).
//!
//! Problem -> recipe -> plan -> execute, as in FFTW: an [`FftProblem`] says what is asked, an
//! [`FftRecipe`] (plain data) says how (radices, Rader or Bluestein, threads per transform,
//! transforms per block, padding, twiddle source), an [`FftPlan`] holds the compiled kernel
//! and its twiddle tables, and executing only binds buffers and launches.
//!
//! ```no_run
//! use coalesce::{Complex, Device};
//! use coalesce::fft::{FftPlan, FftProblem};
//! let device = Device::select(None)?;
//! let x: Vec<Complex<f32>> = (0..360 * 8).map(|i| Complex::new(i as f32, 0.0)).collect();
//! let input = device.upload(&x)?;
//! let mut spectrum = device.alloc::<Complex<f32>>(x.len())?;
//! let plan = FftPlan::new(&device, FftProblem::c2c(360, 8))?;   // 8 transforms of length 360
//! plan.forward(&input, &mut spectrum)?;
//! let mut back = device.alloc::<Complex<f32>>(x.len())?;
//! plan.inverse(&spectrum, &mut back)?;                            // scaled by 1/N: numpy's default
//! # Ok::<(), coalesce::Error>(())
//! ```

/// The four direction wrappers every FFT plan type offers around its own `execute` and
/// `execute_in_place`, written once (a trait would make callers import it to call them).
macro_rules! direction_wrappers {
    () => {
        /// Forward transform (C2C or R2C), out of place. Queued; does not wait.
        pub fn forward<I: Element, O: Element>(&self, input: &DeviceBuffer<I>, output: &mut DeviceBuffer<O>) -> Result<()> {
            self.execute(Direction::Forward, input, output)
        }

        /// Inverse transform (C2C or C2R), out of place. Queued; does not wait.
        pub fn inverse<I: Element, O: Element>(&self, input: &DeviceBuffer<I>, output: &mut DeviceBuffer<O>) -> Result<()> {
            self.execute(Direction::Inverse, input, output)
        }

        /// Forward transform overwriting `data`.
        pub fn forward_in_place<T: Element>(&self, data: &mut DeviceBuffer<T>) -> Result<()> {
            self.execute_in_place(Direction::Forward, data)
        }

        /// Inverse transform overwriting `data`.
        pub fn inverse_in_place<T: Element>(&self, data: &mut DeviceBuffer<T>) -> Result<()> {
            self.execute_in_place(Direction::Inverse, data)
        }
    };
}

mod aligned_stores;
mod cluster;
mod axis_job;
mod bank_conflicts;
mod bluestein_tuning;
mod codegen;
mod codelet;
mod direct_load;
pub mod nd;
mod nd_plan;
pub mod nd_recipe;
pub mod factor;
pub(crate) mod fewer_passes;
mod half_spectrum;
mod held_values;
pub mod lane_groups;
mod lanes_across_rows;
mod pair_load;
mod pair_twiddles;
mod plan;
mod prime_factor_convolution;
mod problem;
mod rader_gather;
mod rader_tuning;
pub mod real_pairs;
mod recipe;
mod rows_per_block;
mod split_costs;
pub mod strided;
mod strided_design;
pub mod reference;
pub mod tables;
mod transform_core;
mod trip_guards;
mod variants;
pub mod wisdom;

pub use cluster::{ClusterLimits, ClusterSplit};
pub use codegen::TableLayout;
pub use codelet::{CodeletSplit, RaderCodelets};
pub use nd::FftNdProblem;
pub use nd_recipe::{FftNdRecipe, FftPass, PassBuffer};
pub use nd_plan::FftNdPlan;
pub use plan::{limits, FftPlan};
pub use problem::{Direction, FftKind, FftProblem, Normalization, Placement, Precision, MAX_REAL_ROW_LEN, MAX_ROW_LEN, MAX_SINGLE_LAUNCH_LEN};
pub use bank_conflicts::BankModel;
pub use recipe::{complex_bytes, DeviceLimits, FftRecipe, FftTuning, RealPacking, TwiddleSource};
pub use transform_core::{radices_text, Core, Stage, MAX_PRIME_RADIX, RADER_MAX_CONVOLUTION_PRIME};
pub use variants::VARIANT_PATH_SEPARATOR;

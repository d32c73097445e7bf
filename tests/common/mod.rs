//! Shared by the integration tests: the devices to run on, and the GPU-suite switch.
#![allow(dead_code)]

use coalesce::Device;

/// Tests that each call one function with arguments of their own: a suite split into parts
/// so that each fits the GPU suite's time limit a test (`#[macro_use] mod common;`).
#[allow(unused_macros)]
macro_rules! tests_calling {
    ($function:path { $($name:ident($($arg:expr),*);)* }) => {$(
        #[test]
        fn $name() {
            $function($($arg),*);
        }
    )*};
}

/// Every device present, or those `COALESCE_TEST_DEVICES` names (comma-separated specs, e.g.
/// `cuda` under compute-sanitizer). With none found the test fails, unless
/// `COALESCE_ALLOW_NO_DEVICE=1`: a suite that silently ran on nothing would prove nothing.
pub fn devices() -> Vec<Device> {
    let devices: Vec<Device> = match std::env::var("COALESCE_TEST_DEVICES") {
        Ok(list) if !list.trim().is_empty() => list
            .split(',')
            .map(|spec| Device::select(Some(spec.trim())).unwrap_or_else(|e| panic!("COALESCE_TEST_DEVICES: {e}")))
            .collect(),
        _ => Device::all(),
    };
    if devices.is_empty() && std::env::var("COALESCE_ALLOW_NO_DEVICE").as_deref() != Ok("1") {
        panic!(
            "no device to test on: install PoCL (apt-get install pocl-opencl-icd) or a GPU driver, \
             or set COALESCE_ALLOW_NO_DEVICE=1 to skip"
        );
    }
    devices
}

/// The exhaustive sweeps of the GPU suite (`COALESCE_FULL_TESTS=1`, set by scripts/gpu.sh).
pub fn full() -> bool {
    std::env::var("COALESCE_FULL_TESTS").is_ok_and(|v| v == "1")
}

/// Running under compute-sanitizer (`COALESCE_UNDER_SANITIZER=1`, set by scripts/gpu.sh):
/// sizes stay small, as the sanitizer slows kernels a hundredfold, and tests of several host
/// threads sharing one plan are skipped: racecheck serialises their launches and was seen to
/// hang one (they add no kernel coverage; the normal runs test them).
pub fn under_sanitizer() -> bool {
    std::env::var("COALESCE_UNDER_SANITIZER").is_ok_and(|v| v == "1")
}

/// The large size every suite includes: 2^24 elements (2^18 under the sanitizer).
pub fn large() -> usize {
    if under_sanitizer() { 1 << 18 } else { 1 << 24 }
}

/// Lengths that catch edge cases: 1, primes, 2^k - 1, 2^k, 2^k + 1, and one of 2^24.
pub fn awkward_lengths() -> Vec<usize> {
    let mut v = vec![1, 2, 3, 5, 7, 13, 31, 32, 33, 127, 255, 256, 257, 1023, 1024, 1025, 4095, 4097, 65535, 65537];
    if !under_sanitizer() {
        v.push(1_000_003);
    }
    if full() && !under_sanitizer() {
        v.extend([(1 << 20) - 1, (1 << 20) + 1, 3 * 7 * 11 * 13 * 17 * 19, (1 << 26) + 3]);
    }
    v.push(large());
    v
}

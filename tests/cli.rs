//! The `coalesce` command, run as a user runs it.

mod common;

use std::process::{Command, Output};

/// The CLI under test: `COALESCE_BIN` where the binary was moved (the GPU machine), else the
/// one cargo built beside this test.
fn coalesce(args: &[&str]) -> Command {
    let bin = std::env::var("COALESCE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_coalesce").to_owned());
    let mut c = Command::new(bin);
    c.args(args);
    c
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn info_lists_every_device_with_its_copy_bandwidth() {
    common::devices(); // fails the test when there is nothing to list
    let devices = coalesce::Device::all();
    let o = coalesce(&["info", "--quick"]).output().unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    for d in &devices {
        assert!(out.contains(&format!("{}: {}", d.id(), d.info().name)), "{} missing from:\n{out}", d.id());
    }
    assert_eq!(out.matches("device copy bandwidth").count(), devices.len(), "{out}");
    assert!(out.contains("GB/s"), "{out}");
}

#[test]
fn quick_copy_bench_prints_a_table_and_writes_csv() {
    let d = &common::devices()[0];
    let dir = std::env::temp_dir().join(format!("coalesce-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("copy.csv");
    let o = coalesce(&["bench", "copy", "--quick", "--device", &d.id(), "--csv", csv.to_str().unwrap()]).output().unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("copy f32") && out.contains("of memcpy") && out.contains("driver memcpy"), "{out}");
    let written = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    assert!(lines[0].starts_with("case,size,time ms,GB/s"), "{written}");
    assert_eq!(lines.len(), 1 + 8, "header and eight rows:\n{written}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unknown_device_and_suite_are_clear_errors() {
    let o = coalesce(&["--device", "bogus", "info"]).output().unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("unknown device 'bogus'") && err.contains("cuda:N"), "{err}");

    let o = coalesce(&["bench", "nosuch", "--quick"]).output().unwrap();
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("unknown benchmark suite 'nosuch'") && err.contains("copy, reduce, transfer"), "{err}");
}

#[test]
fn no_device_at_all_says_what_to_install() {
    // Hide CUDA devices and point the OpenCL loader at an empty vendor folder.
    let empty = std::env::temp_dir().join(format!("coalesce-no-icd-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let o = coalesce(&["bench", "copy", "--quick"])
        .env("CUDA_VISIBLE_DEVICES", "")
        .env("OCL_ICD_VENDORS", &empty)
        .env_remove("COALESCE_DEVICE")
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(err.contains("no compute device found") && err.contains("pocl-opencl-icd"), "{err}");
    let _ = std::fs::remove_dir_all(&empty);
}
